#include "compiler/ir/TensorType.h"

#include <charconv>

namespace shardgen {

namespace {
struct ElementTypeInfo {
  ElementType type;
  std::string_view name;
  size_t width;
  std::string_view descr;
};

constexpr ElementTypeInfo kElementTypes[] = {
    {ElementType::F32, "f32", 4, "<f4"},
    {ElementType::F64, "f64", 8, "<f8"},
    {ElementType::F16, "f16", 2, "<f2"},
    {ElementType::BF16, "bf16", 2, "<V2"},
    {ElementType::I1, "i1", 1, "|b1"},
    {ElementType::I8, "i8", 1, "|i1"},
    {ElementType::I32, "i32", 4, "<i4"},
    {ElementType::I64, "i64", 8, "<i8"},
    {ElementType::UI8, "ui8", 1, "|u1"},
    {ElementType::UI32, "ui32", 4, "<u4"},
    {ElementType::I16, "i16", 2, "<i2"},
    {ElementType::UI16, "ui16", 2, "<u2"},
    {ElementType::UI64, "ui64", 8, "<u8"},
    {ElementType::C64, "complex<f32>", 8, "<c8"},
    {ElementType::C128, "complex<f64>", 16, "<c16"},
    // Sub-byte integers are stored (and saved in .npy) one per byte.
    {ElementType::I2, "i2", 1, "|i1"},
    {ElementType::I4, "i4", 1, "|i1"},
    {ElementType::UI2, "ui2", 1, "|u1"},
    {ElementType::UI4, "ui4", 1, "|u1"},
    // No data, no bytes, no numpy dtype (.npy files refuse tokens).
    {ElementType::Token, "!stablehlo.token", 0, ""},
// The mini floats are stored (and saved in .npy) as their codes, one a byte.
#define SHARDGEN_ELEMENT_TYPE_INFO(Name, mlirName) {ElementType::Name, #mlirName, 1, "|u1"},
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_ELEMENT_TYPE_INFO)
#undef SHARDGEN_ELEMENT_TYPE_INFO
};

const ElementTypeInfo &info(ElementType type) { return kElementTypes[static_cast<int>(type)]; }
} // namespace

std::string_view elementTypeName(ElementType type) { return info(type).name; }
size_t elementByteWidth(ElementType type) { return info(type).width; }
std::string_view numpyDescr(ElementType type) { return info(type).descr; }

std::optional<ElementType> parseElementType(std::string_view text) {
  for (const auto &entry : kElementTypes)
    if (entry.name == text && entry.type != ElementType::Token) // a type, not an element's
      return entry.type;
  return std::nullopt;
}

bool holdsExactly(ElementType wide, ElementType narrow) {
  const size_t wideBytes = elementByteWidth(wide), narrowBytes = elementByteWidth(narrow);
  if (wide == ElementType::I1 || narrow == ElementType::I1 || wideBytes <= narrowBytes)
    return false;
  // f16 and bf16 fit f32 and f64; a mini float fits any wider float but
  // f8E8M0FNU (2^-127..2^127) f16.
  if (isFloat(wide) && isFloat(narrow))
    return !(wide == ElementType::F16 && narrow == ElementType::F8E8M0FNU);
  if (isSignedInteger(wide))
    return isSignedInteger(narrow) || isUnsignedInteger(narrow); // a wider range either way
  return isUnsignedInteger(wide) && isUnsignedInteger(narrow);
}

bool isFloat(ElementType type) {
  return type == ElementType::F32 || type == ElementType::F64 || type == ElementType::F16 ||
         type == ElementType::BF16 || isMiniFloat(type);
}
bool isMiniFloat(ElementType type) { return type >= ElementType::F8E3M4; }
int miniFloatBits(ElementType type) {
  switch (type) {
#define SHARDGEN_MINI_FLOAT_BITS(Name, mlirName)                                                   \
  case ElementType::Name:                                                                          \
    return runtime::Format##Name::kBits;
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_BITS)
#undef SHARDGEN_MINI_FLOAT_BITS
  default:
    return 0;
  }
}
bool isSignedInteger(ElementType type) {
  return type == ElementType::I8 || type == ElementType::I16 || type == ElementType::I32 ||
         type == ElementType::I64 || type == ElementType::I2 || type == ElementType::I4;
}
int subByteBits(ElementType type) {
  return type == ElementType::I2 || type == ElementType::UI2   ? 2
         : type == ElementType::I4 || type == ElementType::UI4 ? 4
                                                               : 0;
}
bool isComplex(ElementType type) { return type == ElementType::C64 || type == ElementType::C128; }
ElementType complexPartType(ElementType type) {
  return type == ElementType::C64    ? ElementType::F32
         : type == ElementType::C128 ? ElementType::F64
                                     : type;
}
ElementType complexOf(ElementType part) {
  return part == ElementType::F64 ? ElementType::C128 : ElementType::C64;
}
bool isUnsignedInteger(ElementType type) {
  return type == ElementType::UI8 || type == ElementType::UI16 || type == ElementType::UI32 ||
         type == ElementType::UI64 || type == ElementType::I1 || type == ElementType::UI2 ||
         type == ElementType::UI4;
}

int64_t TensorType::numElements() const {
  if (isToken())
    return 0; // a token holds no elements: every walk over elements skips it
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string joinInts(const std::vector<int64_t> &values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out;
}

std::string printShape(const Shape &shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      out += 'x';
    out += std::to_string(shape[i]);
  }
  return out;
}

std::string printType(const TensorType &type) {
  if (type.isToken())
    return std::string(elementTypeName(ElementType::Token));
  std::string out = "tensor<";
  for (int64_t d : type.shape)
    out += std::to_string(d) + "x";
  out += elementTypeName(type.elementType);
  return out + ">";
}

std::optional<TensorType> parseType(std::string_view text, std::string *error) {
  auto bad = [&](const std::string &why) -> std::optional<TensorType> {
    if (error)
      *error = "invalid tensor type \"" + std::string(text) + "\": " + why;
    return std::nullopt;
  };
  if (text == elementTypeName(ElementType::Token))
    return tokenType();
  constexpr std::string_view prefix = "tensor<";
  if (text.substr(0, prefix.size()) != prefix || text.empty() || text.back() != '>')
    return bad("expected tensor<DIMSxELEMENT> or !stablehlo.token");
  std::string_view body = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  TensorType type;
  // Dims are "<digits>x" groups; what remains is the element type.
  while (!body.empty() && body[0] >= '0' && body[0] <= '9') {
    if (type.rank() == kMaxRank)
      return bad("more than " + std::to_string(kMaxRank) + " dimensions");
    size_t x = body.find('x');
    if (x == std::string_view::npos)
      return bad("expected 'x' after a dimension");
    int64_t dim = 0;
    // from_chars takes the end pointer: no terminator is read.
    // NOLINTNEXTLINE(bugprone-suspicious-stringview-data-usage)
    auto [ptr, ec] = std::from_chars(body.data(), body.data() + x, dim);
    if (ec != std::errc() || ptr != body.data() + x)
      return bad("dimension is not a number");
    if (x > 1 && body[0] == '0')
      return bad("dimension has a leading zero");
    type.shape.push_back(dim);
    body.remove_prefix(x + 1);
  }
  if (!body.empty() && (body[0] == '?' || body[0] == '*'))
    return bad("dynamic shapes are not supported");
  auto element = parseElementType(body);
  if (!element)
    return bad("unknown element type \"" + std::string(body) +
               "\" (expected f32 f64 f16 bf16 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64 complex<f32> "
               "complex<f64> i2 i4 ui2 ui4 f8E3M4 f8E4M3 f8E4M3FN f8E4M3FNUZ f8E4M3B11FNUZ "
               "f8E5M2 f8E5M2FNUZ f8E8M0FNU f6E2M3FN f6E3M2FN f4E2M1FN)");
  type.elementType = *element;
  return type;
}

} // namespace shardgen
