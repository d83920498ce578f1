#include "compiler/frontend/ConstantValue.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Literal.h"

namespace shardgen {

namespace {

// Larger constants would not fit in memory anyway; refuse them with a message
// instead of an allocation failure.
constexpr int64_t kMaxConstantBytes = int64_t(1) << 31;

std::string describeShape(const Shape &shape) {
  return shape.empty() ? "a scalar" : "shape " + printShape(shape);
}

/// Element count of `type`, failing on overflow or absurd sizes.
int64_t checkedByteSize(const TensorType &type, const std::string &pointer) {
  if (type.isToken())
    fail(pointer, "a constant cannot be a !stablehlo.token (a token holds no value; after_all "
                  "makes one)");
  int64_t count = 1;
  for (int64_t dim : type.shape) {
    if (dim != 0 && count > kMaxConstantBytes / dim)
      fail(pointer, "constant of type " + printType(type) + " is too large");
    count *= dim;
  }
  if (count > kMaxConstantBytes / static_cast<int64_t>(elementByteWidth(type.elementType)))
    fail(pointer, "constant of type " + printType(type) + " is too large");
  return count;
}

/// The shape of a nested array, from its first elements; checkRectangular
/// then proves every sibling agrees.
Shape nestedShape(const Json &value) {
  Shape shape;
  const Json *level = &value;
  while (level->is_array()) {
    shape.push_back(static_cast<int64_t>(level->size()));
    if (level->empty())
      break;
    level = &(*level)[0];
  }
  return shape;
}

/// Complex leaves are [real, imaginary] arrays (`pairLeaves`).
void collectLeaves(const Json &value, const Shape &shape, size_t depth, const std::string &pointer,
                   std::vector<const Json *> &leaves, bool pairLeaves = false) {
  if (depth == shape.size()) {
    if (value.is_array() && !pairLeaves)
      fail(pointer, "ragged nested array: expected a scalar at depth " + std::to_string(depth) +
                        ", like its siblings");
    leaves.push_back(&value);
    return;
  }
  if (!value.is_array())
    fail(pointer, "ragged nested array: expected an array of " + std::to_string(shape[depth]) +
                      " elements, like its siblings, got " + std::string(jsonKindName(value)));
  if (static_cast<int64_t>(value.size()) != shape[depth])
    fail(pointer, "ragged nested array: expected " + std::to_string(shape[depth]) +
                      " elements, like its siblings, got " + std::to_string(value.size()));
  for (size_t i = 0; i < value.size(); ++i)
    collectLeaves(value[i], shape, depth + 1, joinPointer(pointer, i), leaves, pairLeaves);
}

/// The pointer of leaf `index` of a nested array of `shape` at `pointer`.
std::string leafPointer(const std::string &pointer, const Shape &shape, int64_t index) {
  std::vector<int64_t> coordinates(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coordinates[d] = index % shape[d];
    index /= shape[d];
  }
  std::string out = pointer;
  for (int64_t c : coordinates)
    out = joinPointer(out, static_cast<size_t>(c));
  return out;
}

std::optional<double> nonFiniteName(const Json &leaf) {
  if (!leaf.is_string())
    return std::nullopt;
  const auto &text = leaf.get_ref<const std::string &>();
  if (text == "inf")
    return std::numeric_limits<double>::infinity();
  if (text == "-inf")
    return -std::numeric_limits<double>::infinity();
  if (text == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

/// The element type of an untyped constant: i1 if all booleans, i32 if all
/// integers, else f32.
ElementType inferElementType(const std::vector<const Json *> &leaves, const std::string &pointer,
                             const Shape &shape) {
  if (leaves.empty())
    return ElementType::F32;
  bool booleans = leaves[0]->is_boolean();
  bool allIntegers = true;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const Json &leaf = *leaves[i];
    if (leaf.is_boolean() != booleans)
      fail(leafPointer(pointer, shape, i),
           "a constant without a \"type\" cannot mix booleans and numbers");
    if (!leaf.is_number_integer())
      allIntegers = false;
  }
  if (booleans)
    return ElementType::I1;
  return allIntegers ? ElementType::I32 : ElementType::F32;
}

bool fitsInteger(ElementType type, int64_t value) {
  switch (type) {
  case ElementType::I8:
    return value >= INT8_MIN && value <= INT8_MAX;
  case ElementType::I16:
    return value >= INT16_MIN && value <= INT16_MAX;
  case ElementType::I32:
    return value >= INT32_MIN && value <= INT32_MAX;
  case ElementType::UI8:
    return value >= 0 && value <= UINT8_MAX;
  case ElementType::UI16:
    return value >= 0 && value <= UINT16_MAX;
  case ElementType::UI32:
    return value >= 0 && value <= int64_t(UINT32_MAX);
  case ElementType::UI64:
    return value >= 0; // and those above INT64_MAX, read apart
  case ElementType::I2:
  case ElementType::I4:
    return value >= -(int64_t(1) << (subByteBits(type) - 1)) &&
           value < (int64_t(1) << (subByteBits(type) - 1));
  case ElementType::UI2:
  case ElementType::UI4:
    return value >= 0 && value < (int64_t(1) << subByteBits(type));
  default:
    return true; // i64
  }
}

void storeFloat(Literal &literal, int64_t index, const Json &leaf, const std::string &pointer) {
  ElementType type = literal.elementType();
  double value;
  if (auto special = nonFiniteName(leaf))
    value = *special;
  else if (leaf.is_number())
    value = leaf.get<double>();
  else
    fail(pointer, "expected a number (or \"inf\", \"-inf\", \"nan\") for " +
                      std::string(elementTypeName(type)) + ", got " +
                      std::string(jsonKindName(leaf)));
  literal.setFloat(index, value);
  if (std::isfinite(value) && !std::isfinite(literal.getFloat(index)))
    fail(pointer,
         "value " + leaf.dump() + " is out of range for " + std::string(elementTypeName(type)));
}

void storeInteger(Literal &literal, int64_t index, const Json &leaf, const std::string &pointer,
                  bool typeGiven) {
  ElementType type = literal.elementType();
  std::string typeName(elementTypeName(type));
  if (type == ElementType::I1) {
    if (leaf.is_boolean()) {
      literal.setInt(index, leaf.get<bool>());
      return;
    }
    if (leaf.is_number_integer() && (leaf.get<int64_t>() == 0 || leaf.get<int64_t>() == 1)) {
      literal.setInt(index, leaf.get<int64_t>());
      return;
    }
    fail(pointer, "expected true, false, 0 or 1 for i1, got " + leaf.dump());
  }
  int64_t value = 0;
  if (leaf.is_number_unsigned() && leaf.get<uint64_t>() > uint64_t(INT64_MAX)) {
    if (type != ElementType::UI64)
      fail(pointer, "value " + leaf.dump() + " is out of range for " + typeName);
    literal.setInt(index, static_cast<int64_t>(leaf.get<uint64_t>())); // the bits
    return;
  } else if (leaf.is_number_integer()) {
    value = leaf.get<int64_t>();
  } else if (leaf.is_number_float()) {
    double number = leaf.get<double>();
    // An integral float (2.0) is fine; the range check below covers size.
    if (std::trunc(number) != number || !(std::fabs(number) < 9.2e18))
      fail(pointer, "expected an integer for " + typeName + ", got " + leaf.dump());
    value = static_cast<int64_t>(number);
  } else {
    fail(pointer,
         "expected an integer for " + typeName + ", got " + std::string(jsonKindName(leaf)));
  }
  if (!fitsInteger(type, value)) {
    if (typeGiven)
      fail(pointer, "value " + leaf.dump() + " is out of range for " + typeName);
    fail(pointer, "value " + leaf.dump() +
                      " does not fit i32, the type of untyped integer constants; give the "
                      "constant a \"type\"");
  }
  literal.setInt(index, value);
}

/// A complex element is a [real, imaginary] pair of numbers (or "inf",
/// "-inf", "nan").
void storeComplex(Literal &literal, int64_t index, const Json &pair, const std::string &pointer) {
  if (!pair.is_array() || pair.size() != 2)
    fail(pointer, "expected a [real, imaginary] pair for " +
                      std::string(elementTypeName(literal.elementType())) + ", got " + pair.dump());
  Literal parts(TensorType{complexPartType(literal.elementType()), {2}});
  storeFloat(parts, 0, pair[0], joinPointer(pointer, 0));
  storeFloat(parts, 1, pair[1], joinPointer(pointer, 1));
  literal.setComplex(index, parts.getFloat(0), parts.getFloat(1));
}

void storeElement(Literal &literal, int64_t index, const Json &leaf, const std::string &pointer,
                  bool typeGiven) {
  if (isComplex(literal.elementType()))
    storeComplex(literal, index, leaf, pointer);
  else if (isFloat(literal.elementType()))
    storeFloat(literal, index, leaf, pointer);
  else
    storeInteger(literal, index, leaf, pointer, typeGiven);
}

/// A complex constant: nested arrays of the type's shape whose leaves are
/// [real, imaginary] pairs, or one pair or one number (a splat; a number is
/// real).
ConstantAttrs readComplexValue(const Json &value, const std::string &pointer,
                               const TensorType &declared, const std::string &typePointer) {
  Shape pairs = declared.shape;
  pairs.push_back(2);
  const Shape shape = nestedShape(value);
  const bool splat = shape == Shape{2} && shape != pairs;
  if (!splat && shape != pairs && value.is_array())
    fail(pointer, "complex constant value has " + describeShape(shape) + " but its \"type\" is " +
                      printType(declared) + " (each element a [real, imaginary] pair)");
  const int64_t count = checkedByteSize(declared, typePointer);
  if (splat || !value.is_array()) { // one number: a real value, imaginary part 0
    Literal element(TensorType{declared.elementType, {}});
    if (count > 0 && splat)
      storeComplex(element, 0, value, pointer);
    else if (count > 0) {
      Literal real(TensorType{complexPartType(declared.elementType), {1}});
      storeFloat(real, 0, value, pointer);
      element.setComplex(0, real.getFloat(0), 0);
    }
    return ConstantAttrs::splatOf(declared, std::move(element));
  }
  std::vector<const Json *> leaves;
  collectLeaves(value, declared.shape, 0, pointer, leaves, true);
  Literal literal(declared);
  for (size_t i = 0; i < leaves.size(); ++i)
    storeComplex(literal, static_cast<int64_t>(i), *leaves[i],
                 leafPointer(pointer, declared.shape, static_cast<int64_t>(i)));
  return ConstantAttrs::dense(std::move(literal));
}

} // namespace

ConstantAttrs readConstantValue(const Json &value, const std::string &pointer,
                                const std::optional<TensorType> &declared,
                                const std::string &typePointer) {
  if (declared && isComplex(declared->elementType))
    return readComplexValue(value, pointer, *declared, typePointer);
  if (!value.is_array()) {
    if (!value.is_number() && !value.is_boolean() && !nonFiniteName(value))
      fail(pointer, "expected a number, a boolean, \"inf\", \"-inf\", \"nan\" or a nested "
                    "array, got " +
                        std::string(jsonKindName(value)));
    if (!declared)
      fail(typePointer, "constant with a splat value needs a \"type\"");
    int64_t count = checkedByteSize(*declared, typePointer);
    // One element, kept so: never expanded to the type's size here.
    Literal element(TensorType{declared->elementType, {}});
    if (count > 0)
      storeElement(element, 0, value, pointer, true);
    return ConstantAttrs::splatOf(*declared, std::move(element));
  }

  Shape shape = nestedShape(value);
  std::vector<const Json *> leaves;
  collectLeaves(value, shape, 0, pointer, leaves);
  TensorType type;
  if (declared) {
    if (declared->shape != shape)
      fail(pointer, "constant value has " + describeShape(shape) + " but its \"type\" is " +
                        printType(*declared));
    type = *declared;
  } else {
    type = TensorType{inferElementType(leaves, pointer, shape), shape};
  }
  checkedByteSize(type, pointer);
  Literal literal(type);
  for (size_t i = 0; i < leaves.size(); ++i)
    storeElement(literal, static_cast<int64_t>(i), *leaves[i],
                 leafPointer(pointer, shape, static_cast<int64_t>(i)), declared.has_value());
  return ConstantAttrs::dense(std::move(literal));
}

namespace {

Json floatToJson(double value, ElementType type) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (type == ElementType::F64)
    return value;
  // f32/f16/bf16 hold float values: the shortest text that reads back as the
  // same float, as a double, so the JSON stays short ("0.1", not 0.1000000015).
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
  (void)ec; // 64 bytes always suffice for a float
  *end = '\0';
  return std::strtod(buffer, nullptr);
}

Json elementToJson(const Literal &literal, int64_t index) {
  ElementType type = literal.elementType();
  if (isComplex(type))
    return Json::array({floatToJson(literal.getFloat(index), complexPartType(type)),
                        floatToJson(literal.getImag(index), complexPartType(type))});
  if (isFloat(type))
    return floatToJson(literal.getFloat(index), type);
  if (type == ElementType::I1)
    return literal.getInt(index) != 0;
  if (type == ElementType::UI64)
    return static_cast<uint64_t>(literal.getInt(index));
  return literal.getInt(index);
}

Json nestedToJson(const Literal &literal, size_t depth, int64_t &next) {
  if (depth == literal.shape().size())
    return elementToJson(literal, next++);
  Json array = Json::array();
  for (int64_t i = 0; i < literal.shape()[depth]; ++i)
    array.push_back(nestedToJson(literal, depth + 1, next));
  return array;
}

} // namespace

Json constantValueToJson(const ConstantAttrs &constant) {
  const Literal &literal = constant.elements;
  if (constant.splat)
    return constant.type.numElements() > 0 ? elementToJson(literal, 0) : Json(0);
  int64_t next = 0;
  return nestedToJson(literal, 0, next);
}

void checkConstantSize(const TensorType &type, const std::string &pointer) {
  checkedByteSize(type, pointer);
}

} // namespace shardgen
