#include "Arrays.h"

#include <dlpack/dlpack.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>

namespace shardgen::python {

namespace {

// DLPack 0.8's kDLBool (libdlpack-dev 0.6's header predates it); exporters
// that follow a newer DLPack mark bool tensors with it.
constexpr uint8_t kDLBoolCode = 6;

std::optional<py::dtype> &bfloat16Dtype() {
  static std::optional<py::dtype> dtype;
  return dtype;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? ", " : "") + std::to_string(shape[d]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string dtypeName(ElementType type) {
  if (type == ElementType::BF16)
    return bfloat16Dtype() ? "bfloat16" : "bfloat16 (as uint16)";
  return py::str(dtypeOf(type));
}

[[noreturn]] void refuse(const std::string &what, const std::string &got, const TensorType &type) {
  throw py::type_error(what + ": got " + got + "; the program wants " + describeWanted(type));
}

/// The element type a DLPack dtype holds, if it is one of shardgen's.
std::optional<ElementType> elementTypeOf(const DLDataType &dtype) {
  if (dtype.lanes != 1)
    return std::nullopt;
  std::pair<int, int> key{dtype.code, dtype.bits};
  static const std::pair<std::pair<int, int>, ElementType> kTypes[] = {
      {{kDLFloat, 32}, ElementType::F32},    {{kDLFloat, 64}, ElementType::F64},
      {{kDLFloat, 16}, ElementType::F16},    {{kDLBfloat, 16}, ElementType::BF16},
      {{kDLBoolCode, 8}, ElementType::I1},   {{kDLInt, 8}, ElementType::I8},
      {{kDLInt, 32}, ElementType::I32},      {{kDLInt, 64}, ElementType::I64},
      {{kDLUInt, 8}, ElementType::UI8},      {{kDLUInt, 32}, ElementType::UI32},
      {{kDLInt, 16}, ElementType::I16},      {{kDLUInt, 16}, ElementType::UI16},
      {{kDLUInt, 64}, ElementType::UI64},    {{kDLComplex, 64}, ElementType::C64},
      {{kDLComplex, 128}, ElementType::C128}};
  for (const auto &[codeBits, type] : kTypes)
    if (codeBits == key)
      return type;
  return std::nullopt;
}

std::string dlpackTypeName(const DLDataType &dtype) {
  static const char *const kCodes[] = {"int",    "uint",    "float", "opaque",
                                       "bfloat", "complex", "bool"};
  std::string code = dtype.code < 7 ? kCodes[dtype.code] : "code " + std::to_string(dtype.code);
  return code + std::to_string(dtype.bits) +
         (dtype.lanes != 1 ? "x" + std::to_string(dtype.lanes) : "");
}

/// "numpy.ndarray", "torch.Tensor", "list" (built-ins without their module).
std::string typeNameOf(py::handle object) {
  py::handle type = py::type::handle_of(object);
  auto name = py::str(type.attr("__qualname__")).cast<std::string>();
  auto module = py::str(type.attr("__module__")).cast<std::string>();
  return module == "builtins" ? name : module + "." + name;
}

/// Whether `strides` (in elements; may be null) are row-major for `shape`
/// (dims of size 1 may have any stride).
bool rowMajor(const std::vector<int64_t> &shape, const int64_t *strides) {
  if (!strides)
    return true;
  int64_t expected = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != expected)
      return false;
    expected *= shape[d];
  }
  return true;
}

/// The element type of a struct-module format ("<f", "=i", "q", ...), if
/// one of shardgen's in this machine's byte order.
std::optional<ElementType> elementTypeOfFormat(std::string_view format, int64_t itemsize) {
  if (!format.empty() && (format[0] == '<' || format[0] == '=' || format[0] == '@'))
    format.remove_prefix(1);
  if (format == "Zf") // PEP 3118 complex: (real, imaginary) pairs
    return ElementType::C64;
  if (format == "Zd")
    return ElementType::C128;
  if (format.size() != 1)
    return std::nullopt;
  switch (format[0]) {
  case 'f':
    return ElementType::F32;
  case 'd':
    return ElementType::F64;
  case 'e':
    return ElementType::F16;
  case '?':
    return ElementType::I1;
  case 'b':
    return ElementType::I8;
  case 'B':
    return ElementType::UI8;
  case 'h':
    return ElementType::I16;
  case 'H':
    return ElementType::UI16;
  case 'i':
  case 'l':
  case 'q':
    return itemsize == 4   ? std::optional(ElementType::I32)
           : itemsize == 8 ? std::optional(ElementType::I64)
                           : std::nullopt;
  case 'I':
  case 'L':
  case 'Q':
    return itemsize == 4   ? std::optional(ElementType::UI32)
           : itemsize == 8 ? std::optional(ElementType::UI64)
                           : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether a numpy dtype is what `type` wants (bf16: ml_dtypes.bfloat16 or
/// the uint16 bit patterns).
bool dtypeMatches(const py::dtype &dtype, ElementType type) {
  py::dtype wanted = dtypeOf(type);
  if (dtype.is(wanted) || dtype.equal(wanted))
    return true;
  return type == ElementType::BF16 && dtype.equal(py::dtype::of<uint16_t>());
}

} // namespace

void initDtypes() {
  try {
    py::module_ mlDtypes = py::module_::import("ml_dtypes");
    bfloat16Dtype() = py::dtype::from_args(mlDtypes.attr("bfloat16"));
  } catch (const py::error_already_set &) {
    bfloat16Dtype().reset(); // not installed: bf16 travels as uint16
  }
}

py::dtype dtypeOf(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return py::dtype::of<float>();
  case ElementType::F64:
    return py::dtype::of<double>();
  case ElementType::F16:
    return py::dtype("float16");
  case ElementType::BF16:
    return bfloat16Dtype() ? *bfloat16Dtype() : py::dtype::of<uint16_t>();
  case ElementType::I1:
    return py::dtype::of<bool>();
  case ElementType::I8:
    return py::dtype::of<int8_t>();
  case ElementType::I32:
    return py::dtype::of<int32_t>();
  case ElementType::I64:
    return py::dtype::of<int64_t>();
  case ElementType::UI8:
    return py::dtype::of<uint8_t>();
  case ElementType::UI32:
    return py::dtype::of<uint32_t>();
  case ElementType::I16:
    return py::dtype::of<int16_t>();
  case ElementType::UI16:
    return py::dtype::of<uint16_t>();
  case ElementType::UI64:
    return py::dtype::of<uint64_t>();
  case ElementType::C64:
    return py::dtype("complex64");
  case ElementType::C128:
    return py::dtype("complex128");
  case ElementType::I2: // one byte per element
  case ElementType::I4:
    return py::dtype::of<int8_t>();
  case ElementType::UI2:
  case ElementType::UI4:
  case ElementType::Token: // no data (docs/graph-format.md, Tokens): never an array's dtype
    return py::dtype::of<uint8_t>();
#define SHARDGEN_MINI_FLOAT_DTYPE(Name, mlirName) case ElementType::Name:
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_DTYPE)
#undef SHARDGEN_MINI_FLOAT_DTYPE
    return py::dtype::of<uint8_t>(); // the codes, one a byte
  }
  return py::dtype::of<float>();
}

std::string describeWanted(const TensorType &type) {
  return dtypeName(type.elementType) + " of shape " + shapeText(type.shape) + " (" +
         printType(type) + ")";
}

BoundTensor::BoundTensor(BoundTensor &&other) noexcept
    : data(std::exchange(other.data, nullptr)), owner_(std::move(other.owner_)),
      buffer_(std::move(other.buffer_)), managed_(std::exchange(other.managed_, nullptr)) {}

BoundTensor &BoundTensor::operator=(BoundTensor &&other) noexcept {
  if (this != &other) {
    BoundTensor old(std::move(*this));
    data = std::exchange(other.data, nullptr);
    owner_ = std::move(other.owner_);
    buffer_ = std::move(other.buffer_);
    managed_ = std::exchange(other.managed_, nullptr);
  }
  return *this;
}

BoundTensor::~BoundTensor() {
  if (buffer_)
    PyBuffer_Release(buffer_.get());
  if (auto *managed = static_cast<DLManagedTensor *>(managed_); managed && managed->deleter)
    managed->deleter(managed);
}

BoundTensor BoundTensor::fromArray(py::handle object, const TensorType &type,
                                   const std::string &what) {
  auto array = py::reinterpret_borrow<py::array>(object);
  // What it is, for the message only (this path runs on every call).
  auto got = [&] {
    std::vector<int64_t> arrayShape(array.shape(), array.shape() + array.ndim());
    return "a " + std::string(py::str(array.dtype())) + " array of shape " + shapeText(arrayShape);
  };
  bool sameShape = static_cast<size_t>(array.ndim()) == type.shape.size() &&
                   std::equal(type.shape.begin(), type.shape.end(), array.shape());
  if (!sameShape || !dtypeMatches(array.dtype(), type.elementType))
    refuse(what, got(), type);
  constexpr int kAligned = 0x0100; // NPY_ARRAY_ALIGNED
  if (!(array.flags() & py::array::c_style))
    refuse(what,
           got() + " that is not C-contiguous (inputs are taken without a copy: pass "
                   "numpy.ascontiguousarray(...))",
           type);
  if (!(array.flags() & kAligned))
    refuse(what, got() + " that is not aligned", type);
  if (const int bits = subByteBits(type.elementType)) { // one byte per element, in range
    const bool isSigned = isSignedInteger(type.elementType);
    const int low = isSigned ? -(1 << (bits - 1)) : 0;
    const int high = isSigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
    const auto *bytes = static_cast<const unsigned char *>(array.data());
    for (py::ssize_t i = 0; i < array.size(); ++i) {
      const int value = isSigned ? static_cast<signed char>(bytes[i]) : bytes[i];
      if (value < low || value > high)
        refuse(what,
               got() + " holding " + std::to_string(value) + ", outside " +
                   std::string(elementTypeName(type.elementType)) + "'s range",
               type);
    }
  }
  if (const int bits = miniFloatBits(type.elementType); bits > 0 && bits < 8) { // f6/f4 codes
    const auto *bytes = static_cast<const unsigned char *>(array.data());
    for (py::ssize_t i = 0; i < array.size(); ++i)
      if ((bytes[i] >> bits) != 0)
        refuse(what,
               got() + " holding " + std::to_string(bytes[i]) + ", no " +
                   std::string(elementTypeName(type.elementType)) + " code",
               type);
  }
  BoundTensor bound;
  bound.data = array.data();
  bound.owner_ = std::move(array);
  return bound;
}

BoundTensor BoundTensor::fromDlpack(py::handle object, const TensorType &type,
                                    const std::string &what) {
  std::string got = "a " + typeNameOf(object);
  if (py::hasattr(object, "__dlpack_device__")) {
    auto device = object.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    if (device.first != kDLCPU)
      refuse(what,
             got + " on DLPack device type " + std::to_string(device.first) +
                 " (only CPU memory can be taken)",
             type);
  }
  py::object capsule = object.attr("__dlpack__")();
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed)
    throw py::error_already_set();
  // Consumed: the capsule no longer deletes it; `bound` does.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  BoundTensor bound;
  bound.managed_ = managed;
  const DLTensor &tensor = managed->dl_tensor;
  std::vector<int64_t> tensorShape(tensor.shape, tensor.shape + tensor.ndim);
  got += " (DLPack " + dlpackTypeName(tensor.dtype) + ", shape " + shapeText(tensorShape) + ")";
  if (tensor.device.device_type != kDLCPU)
    refuse(what, got + " not in CPU memory", type);
  if (elementTypeOf(tensor.dtype) != type.elementType || tensorShape != type.shape)
    refuse(what, got, type);
  if (!rowMajor(tensorShape, tensor.strides))
    refuse(what,
           got + " that is not contiguous (inputs are taken without a copy: make it "
                 "contiguous first)",
           type);
  const auto *data = static_cast<const char *>(tensor.data) + tensor.byte_offset;
  if (reinterpret_cast<uintptr_t>(data) % elementByteWidth(type.elementType) != 0)
    refuse(what, got + " that is not aligned", type);
  bound.data = data;
  return bound;
}

BoundTensor BoundTensor::fromBuffer(py::handle object, const TensorType &type,
                                    const std::string &what) {
  BoundTensor bound;
  bound.buffer_ = std::make_unique<Py_buffer>();
  if (PyObject_GetBuffer(object.ptr(), bound.buffer_.get(), PyBUF_RECORDS_RO) != 0) {
    bound.buffer_.reset(); // nothing to release
    throw py::error_already_set();
  }
  const Py_buffer &buffer = *bound.buffer_;
  std::vector<int64_t> bufferShape(buffer.shape, buffer.shape + buffer.ndim);
  std::string format = buffer.format ? buffer.format : "B";
  std::string got = "a " + typeNameOf(object) + " buffer of format '" + format + "', shape " +
                    shapeText(bufferShape);
  std::optional<ElementType> element = elementTypeOfFormat(format, buffer.itemsize);
  bool bitPatterns = type.elementType == ElementType::BF16 && format.ends_with('H') &&
                     format.size() <= 2 && buffer.itemsize == 2;
  if ((element != type.elementType && !bitPatterns) || bufferShape != type.shape)
    refuse(what, got, type);
  if (!PyBuffer_IsContiguous(&buffer, 'C'))
    refuse(what, got + " that is not C-contiguous", type);
  if (reinterpret_cast<uintptr_t>(buffer.buf) % elementByteWidth(type.elementType) != 0)
    refuse(what, got + " that is not aligned", type);
  bound.data = buffer.buf;
  return bound;
}

BoundTensor bindTensor(py::handle object, const TensorType &type, const std::string &what) {
  if (py::isinstance<py::array>(object)) // numpy, the common case first
    return BoundTensor::fromArray(object, type, what);
  if (py::hasattr(object, "__dlpack__"))
    return BoundTensor::fromDlpack(object, type, what);
  if (PyObject_CheckBuffer(object.ptr()))
    return BoundTensor::fromBuffer(object, type, what);
  refuse(what,
         "a " + typeNameOf(object) + ", which is not an array (no buffer protocol, no __dlpack__)",
         type);
}

py::array newArray(const TensorType &type) {
  std::vector<py::ssize_t> shape(type.shape.begin(), type.shape.end());
  return py::array(dtypeOf(type.elementType), shape);
}

py::array arrayOf(const Literal &literal) {
  py::array array = newArray(literal.type());
  if (literal.byteSize())
    std::memcpy(array.mutable_data(), literal.data(), literal.byteSize());
  return array;
}

Literal literalOf(const BoundTensor &tensor, const TensorType &type) {
  Literal literal(type);
  if (literal.byteSize())
    std::memcpy(literal.data(), tensor.data, literal.byteSize());
  return literal;
}

} // namespace shardgen::python
