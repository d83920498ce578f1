#include "compiler/frontend/Npy.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/frontend/NpyHeader.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kArrayAlign = 64; // numpy aligns the data to 64 bytes
/// Magic, version and the longest header length field.
constexpr size_t kPreambleBytes = 12;

struct Dtype {
  ElementType type;
  bool bigEndian;
};

/// The element type of a simple descr ('<f4', '>i8', '|b1', 'bfloat16').
std::optional<Dtype> parseDescr(std::string_view descr) {
  if (descr == "bfloat16")
    return Dtype{ElementType::BF16, false};
  bool bigEndian = false;
  if (!descr.empty() && std::string_view("<>|=").find(descr[0]) != std::string_view::npos) {
    bigEndian = descr[0] == '>';
    descr.remove_prefix(1);
  }
  static constexpr std::pair<std::string_view, ElementType> kCodes[] = {
      {"f4", ElementType::F32},  {"f8", ElementType::F64},  {"f2", ElementType::F16},
      {"b1", ElementType::I1},   {"i1", ElementType::I8},   {"i2", ElementType::I16},
      {"i4", ElementType::I32},  {"i8", ElementType::I64},  {"u1", ElementType::UI8},
      {"u2", ElementType::UI16}, {"u4", ElementType::UI32}, {"u8", ElementType::UI64},
      {"V2", ElementType::BF16}, {"c8", ElementType::C64},  {"c16", ElementType::C128},
  };
  for (const auto &[code, type] : kCodes)
    if (descr == code)
      return Dtype{type, bigEndian};
  return std::nullopt;
}

uint32_t readLittleEndian(std::string_view bytes, size_t offset, size_t width) {
  uint32_t value = 0;
  for (size_t i = 0; i < width; ++i)
    value |= uint32_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return value;
}

/// Copies `fortran` (column-major) data into `out` in row-major order.
void transposeFromFortran(const std::byte *fortran, Literal &out) {
  const auto &shape = out.shape();
  size_t width = elementByteWidth(out.elementType());
  std::vector<int64_t> strides = out.strides();
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t source = 0; source < out.numElements(); ++source) {
    int64_t target = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      target += index[d] * strides[d];
    std::memcpy(out.data() + target * width, fortran + source * width, width);
    // Advance the column-major counter: the first index moves fastest.
    for (size_t d = 0; d < shape.size() && ++index[d] == shape[d]; ++d)
      index[d] = 0;
  }
}

/// Where a .npy file's header ends (magic, version and header length read
/// from `preamble`, its first kPreambleBytes bytes or fewer).
size_t headerEnd(std::string_view preamble, size_t fileBytes, const std::string &name) {
  auto fail = [&](const std::string &what) -> size_t { throw NpyError(name + ": " + what); };
  if (preamble.size() < kMagic.size() + 2 || preamble.substr(0, kMagic.size()) != kMagic)
    return fail("not a .npy file (bad magic)");
  int major = static_cast<unsigned char>(preamble[6]);
  int minor = static_cast<unsigned char>(preamble[7]);
  if (major < 1 || major > 3 || minor != 0)
    return fail("unsupported .npy format version " + std::to_string(major) + "." +
                std::to_string(minor) + " (reads 1.0, 2.0 and 3.0)");
  size_t lengthWidth = major == 1 ? 2 : 4;
  size_t headerStart = 8 + lengthWidth;
  if (preamble.size() < headerStart)
    return fail("truncated header");
  size_t headerLength = readLittleEndian(preamble, 8, lengthWidth);
  if (headerLength > kMaxHeaderBytes)
    return fail("header of " + std::to_string(headerLength) + " bytes is too large (at most " +
                std::to_string(kMaxHeaderBytes) + ")");
  if (fileBytes - headerStart < headerLength)
    return fail("truncated header: expected " + std::to_string(headerLength) + " bytes");
  return headerStart + headerLength;
}

/// What the header promises: the tensor, its layout and its data size.
struct NpyLayout {
  TensorType type;
  std::string descr;
  bool fortranOrder = false;
  bool bigEndian = false;
  uint64_t dataBytes = 0;
};

NpyLayout parseLayout(std::string_view headerText, const std::string &name) {
  auto fail = [&](const std::string &what) -> NpyLayout { throw NpyError(name + ": " + what); };
  std::string error;
  auto header = parseNpyHeader(headerText, &error);
  if (!header)
    return fail("bad header: " + error);
  auto dtype = parseDescr(header->descr);
  if (!dtype)
    return fail("unsupported dtype '" + escapedText(header->descr) +
                "' (supported: <f4 <f8 <f2 |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 <c8 <c16, and <V2 "
                "for bf16)");
  NpyLayout layout{TensorType{dtype->type, header->shape}, header->descr, header->fortranOrder,
                   dtype->bigEndian};
  // The size is checked against the file before anything is allocated: a
  // corrupt shape must neither overflow nor turn into a huge allocation.
  size_t width = elementByteWidth(layout.type.elementType);
  uint64_t product = 1;
  bool empty = false;
  for (int64_t dim : layout.type.shape) {
    if (dim == 0) {
      empty = true;
      continue;
    }
    if (product > (uint64_t(INT64_MAX) / width) / static_cast<uint64_t>(dim))
      return fail("shape (" + printShape(layout.type.shape) + ") is too large");
    product *= static_cast<uint64_t>(dim);
  }
  layout.dataBytes = empty ? 0 : product * width;
  return layout;
}

/// The file must hold exactly the data its header promises.
void checkDataSize(const NpyLayout &layout, uint64_t available, const std::string &name) {
  if (available == layout.dataBytes)
    return;
  throw NpyError(name + ": " + (available < layout.dataBytes ? "truncated" : "trailing") +
                 " data: shape (" + printShape(layout.type.shape) + ") of '" + layout.descr +
                 "' needs " + std::to_string(layout.dataBytes) + " bytes, the file has " +
                 std::to_string(available));
}

} // namespace

bool isBf16Bits(const TensorType &file, const TensorType &wanted) {
  return wanted.elementType == ElementType::BF16 && file.elementType == ElementType::UI16 &&
         file.shape == wanted.shape;
}

bool isSubByteBytes(const TensorType &file, const TensorType &wanted) {
  if ((subByteBits(wanted.elementType) == 0 && !isMiniFloat(wanted.elementType)) ||
      file.shape != wanted.shape)
    return false;
  return file.elementType ==
         (isSignedInteger(wanted.elementType) ? ElementType::I8 : ElementType::UI8);
}

Literal subByteFromBytes(const Literal &bytes, ElementType type, const std::string &name) {
  Literal out(TensorType{type, bytes.shape()});
  if (isMiniFloat(type)) { // the codes as they are: an f6/f4 one below 2^bits
    for (int64_t i = 0; i < out.numElements(); ++i)
      if ((bytes.getInt(i) >> miniFloatBits(type)) != 0)
        throw NpyError(name + ": byte " + std::to_string(bytes.getInt(i)) + " at flat index " +
                       std::to_string(i) + " is no " + std::string(elementTypeName(type)) +
                       " code");
    if (out.byteSize() > 0)
      std::memcpy(out.data(), bytes.data(), out.byteSize());
    return out;
  }
  for (int64_t i = 0; i < out.numElements(); ++i) {
    out.setInt(i, bytes.getInt(i));
    if (out.getInt(i) != bytes.getInt(i))
      throw NpyError(name + ": value " + std::to_string(bytes.getInt(i)) + " at flat index " +
                     std::to_string(i) + " is out of range for " +
                     std::string(elementTypeName(type)));
  }
  return out;
}

Literal bf16FromBits(const Literal &bits) {
  Literal out(TensorType{ElementType::BF16, bits.shape()});
  if (out.byteSize() > 0)
    std::memcpy(out.data(), bits.data(), out.byteSize());
  return out;
}

namespace {

Literal decodeData(const NpyLayout &layout, std::string_view bytes) {
  Literal literal(layout.type);
  const auto *data = reinterpret_cast<const std::byte *>(bytes.data());
  // A complex element's parts are swapped one by one.
  const size_t width = elementByteWidth(complexPartType(layout.type.elementType));
  if (layout.fortranOrder && layout.type.rank() > 1)
    transposeFromFortran(data, literal);
  else if (literal.byteSize() > 0) // an empty tensor's buffer may be null
    std::memcpy(literal.data(), data, literal.byteSize());
  if (layout.bigEndian && width > 1)
    for (size_t offset = 0; offset < literal.byteSize(); offset += width)
      std::reverse(literal.data() + offset, literal.data() + offset + width);
  if (layout.type.elementType == ElementType::I1) // numpy treats any nonzero byte as True
    for (int64_t i = 0; i < literal.numElements(); ++i)
      literal.as<uint8_t>()[i] = literal.as<uint8_t>()[i] != 0;
  return literal;
}

/// An open file read in pieces, each at most as large as asked for.
class InputFile {
public:
  explicit InputFile(const std::string &path) : path_(path) {
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_)
      throw NpyError(path + ": cannot open: " + std::strerror(errno));
    struct stat info{};
    if (::fstat(::fileno(file_), &info) == 0) {
      if (S_ISDIR(info.st_mode)) {
        std::fclose(file_);
        throw NpyError(path + ": cannot read: " + std::strerror(EISDIR));
      }
      if (S_ISREG(info.st_mode))
        size_ = static_cast<uint64_t>(info.st_size);
    }
  }
  ~InputFile() { std::fclose(file_); }
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;

  /// The size of a regular file; nullopt for a pipe or device.
  std::optional<uint64_t> size() const { return size_; }

  /// Appends up to `count` bytes to `out` (fewer at the end of the file).
  void read(std::string &out, size_t count) {
    size_t start = out.size();
    out.resize(start + count);
    size_t got = std::fread(out.data() + start, 1, count, file_);
    out.resize(start + got);
    if (got < count && std::ferror(file_))
      throw NpyError(path_ + ": cannot read: " + std::strerror(errno));
  }

  bool atEnd() {
    std::string probe;
    read(probe, 1);
    return probe.empty();
  }

private:
  std::string path_;
  std::FILE *file_ = nullptr;
  std::optional<uint64_t> size_;
};

} // namespace

Literal parseNpy(std::string_view bytes, const std::string &name) {
  size_t end = headerEnd(bytes.substr(0, kPreambleBytes), bytes.size(), name);
  size_t headerStart = bytes[6] == 1 ? 10 : 12; // version 1.0: a 16-bit length
  NpyLayout layout = parseLayout(bytes.substr(headerStart, end - headerStart), name);
  checkDataSize(layout, bytes.size() - end, name);
  return decodeData(layout, bytes.substr(end));
}

Literal readNpy(const std::string &path, const std::function<void(const TensorType &)> &checkType) {
  InputFile file(path);
  std::string bytes;
  file.read(bytes, kPreambleBytes);
  // A pipe's length is unknown: the header length only has to fit the limit.
  uint64_t fileBytes = file.size().value_or(UINT64_MAX);
  size_t end = headerEnd(bytes, std::min<uint64_t>(fileBytes, SIZE_MAX), path);
  size_t headerStart = bytes[6] == 1 ? 10 : 12; // version 1.0: a 16-bit length
  // The preamble read may reach past a header too short for any dictionary
  // (a length of 0 or 1): what is left to read must not wrap around.
  if (end < bytes.size())
    throw NpyError(path + ": header of " + std::to_string(end - headerStart) +
                   " bytes is too short to hold its dictionary");
  file.read(bytes, end - bytes.size());
  if (bytes.size() < end)
    throw NpyError(path + ": truncated header: expected " + std::to_string(end - headerStart) +
                   " bytes");
  NpyLayout layout =
      parseLayout(std::string_view(bytes).substr(headerStart, end - headerStart), path);
  if (checkType)
    checkType(layout.type);
  if (file.size())
    checkDataSize(layout, *file.size() - end, path);
  std::string data;
  file.read(data, layout.dataBytes);
  if (data.size() < layout.dataBytes || !file.atEnd())
    checkDataSize(layout, data.size() + (data.size() < layout.dataBytes ? 0 : 1), path);
  return decodeData(layout, data);
}

std::string serializeNpy(const Literal &literal) {
  if (literal.type().isToken()) // the CLI writes no file for a token output
    throw NpyError("a !stablehlo.token holds no data to write as .npy");
  NpyHeader header{std::string(numpyDescr(literal.elementType())), false, literal.shape()};
  std::string dict = printNpyHeaderDict(header);
  // Version 1.0 stores the header length in 16 bits; beyond that numpy uses 2.0.
  int major = 1;
  size_t lengthWidth = 2;
  auto paddedLength = [&] {
    size_t unpadded = kMagic.size() + 2 + lengthWidth + dict.size() + 1; // + '\n'
    return dict.size() + 1 + (kArrayAlign - unpadded % kArrayAlign);
  };
  if (paddedLength() > 0xffff) {
    major = 2;
    lengthWidth = 4;
  }
  size_t headerLength = paddedLength();
  std::string out(kMagic);
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lengthWidth; ++i)
    out += static_cast<char>((headerLength >> (8 * i)) & 0xff);
  out += dict;
  out.append(headerLength - dict.size() - 1, ' ');
  out += '\n';
  if (literal.byteSize() > 0) // an empty tensor's buffer may be null
    out.append(reinterpret_cast<const char *>(literal.data()), literal.byteSize());
  return out;
}

void writeNpy(const std::string &path, const Literal &literal) {
  std::string bytes = serializeNpy(literal);
  std::string temporary = path + ".tmp" + std::to_string(::getpid());
  std::FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file)
    throw NpyError(path + ": cannot write: " + std::strerror(errno));
  bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  int writeError = written ? 0 : errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    writeError = errno;
  }
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = written ? errno : writeError;
    std::remove(temporary.c_str());
    throw NpyError(path + ": cannot write: " + std::strerror(error));
  }
}

} // namespace shardgen
