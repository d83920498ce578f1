#include "compiler/mlir/DenseElements.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compiler/frontend/ConstantValue.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/NestingLimit.h"
#include "compiler/mlir/MlirLexer.h"

namespace shardgen::mlir {

namespace {

class DenseParser {
public:
  DenseParser(std::string_view body, const TensorType &type)
      : lexer_(body), bodySize_(body.size()), type_(type) {}

  /// The whole tensor is allocated only for a list or hex string, whose
  /// text holds every element; a splat stays one element.
  bool parse(ConstantAttrs &out, std::string *error) {
    try {
      const Token &first = lexer_.peek();
      if (first.kind == TokenKind::End) {
        if (type_.numElements() != 0)
          return failWith(error, "dense<> is empty but " + printType(type_) + " has elements");
        out = ConstantAttrs::dense(Literal(type_));
      } else if (first.kind == TokenKind::String) {
        if (!hexBytes(lexer_.next().text, out, error))
          return false;
      } else if (first.isPunct("[")) {
        // Each element takes a character of the text at least: a larger
        // type cannot be what the list spells, and is not allocated.
        if (type_.numElements() > static_cast<int64_t>(bodySize_))
          return failWith(error, "expected " + std::to_string(type_.numElements()) +
                                     " elements for " + printType(type_));
        literal_ = Literal(type_);
        if (!list(0, error))
          return false;
        if (next_ != literal_.numElements())
          return failWith(error, "expected " + std::to_string(literal_.numElements()) +
                                     " elements for " + printType(type_));
        out = ConstantAttrs::dense(std::move(literal_));
      } else { // a splat (MLIR allows one on an empty tensor too: the value is checked)
        literal_ = Literal(TensorType{type_.elementType, {}});
        if (!element(0, error))
          return false;
        out = ConstantAttrs::splatOf(type_, std::move(literal_));
      }
      if (lexer_.peek().kind != TokenKind::End)
        return failWith(error, "unexpected '" + lexer_.peek().text + "' in dense<...>");
    } catch (const GraphError &e) {
      return failWith(error, e.what());
    }
    return true;
  }

private:
  static bool failWith(std::string *error, const std::string &message) {
    *error = message;
    return false;
  }

  bool list(size_t depth, std::string *error) {
    if (depth >= type_.shape.size() || depth >= static_cast<size_t>(kMaxNestingDepth))
      return failWith(error, "dense<...> nests deeper than " + printType(type_));
    lexer_.next(); // '['
    int64_t count = 0;
    if (!lexer_.peek().isPunct("]")) {
      do {
        if (lexer_.peek().isPunct("[")) {
          if (!list(depth + 1, error))
            return false;
        } else {
          if (depth + 1 != type_.shape.size())
            return failWith(error, "dense<...> does not nest like " + printType(type_));
          if (next_ >= literal_.numElements())
            return failWith(error, "too many elements for " + printType(type_));
          if (!element(next_++, error))
            return false;
        }
        ++count;
      } while (lexer_.peek().isPunct(",") && (lexer_.next(), true));
    }
    if (!lexer_.peek().isPunct("]"))
      return failWith(error, "expected ']' in dense<...>");
    lexer_.next();
    if (count != type_.shape[depth])
      return failWith(error, "dense<...> has " + std::to_string(count) + " entries in dim " +
                                 std::to_string(depth) + " of " + printType(type_));
    return true;
  }

  bool element(int64_t index, std::string *error) {
    if (index >= literal_.numElements())
      return failWith(error, "dense<...> has a value but " + printType(type_) + " has no elements");
    if (isComplex(type_.elementType))
      return complexElement(index, error);
    return scalar(literal_, index, error);
  }

  /// A complex element: `(real, imaginary)`, each part as a float of the
  /// part type (hex bit patterns too).
  bool complexElement(int64_t index, std::string *error) {
    if (!lexer_.next().isPunct("("))
      return failWith(error, "expected '(' to start a " +
                                 std::string(elementTypeName(type_.elementType)) + " value");
    Literal parts(TensorType{complexPartType(type_.elementType), {2}});
    if (!scalar(parts, 0, error))
      return false;
    if (!lexer_.next().isPunct(","))
      return failWith(error, "expected ',' between a complex value's parts");
    if (!scalar(parts, 1, error))
      return false;
    if (!lexer_.next().isPunct(")"))
      return failWith(error, "expected ')' after a complex value's parts");
    literal_.setComplex(index, parts.getFloat(0), parts.getFloat(1));
    return true;
  }

  /// One number of `into`'s element type into its element `index`.
  bool scalar(Literal &into, int64_t index, std::string *error) {
    Token t = lexer_.next();
    ElementType et = into.elementType();
    if (t.kind == TokenKind::BareId && (t.text == "true" || t.text == "false")) {
      if (et != ElementType::I1)
        return failWith(error, t.text + " is not a value of " + std::string(elementTypeName(et)));
      into.setInt(index, t.text == "true");
      return true;
    }
    if (t.kind == TokenKind::Integer && t.text.find('x') != std::string::npos) {
      // Hex: the element's bit pattern.
      unsigned long long bits =
          std::strtoull(t.text.c_str() + (t.text[0] == '-' ? 3 : 2), nullptr, 16);
      size_t width = elementByteWidth(et);
      if (t.text[0] == '-' || t.text.size() - 2 > 2 * width)
        return failWith(error, t.text + " does not fit " + std::string(elementTypeName(et)));
      std::memcpy(into.data() + index * width, &bits, width); // little-endian host
      if (subByteBits(et) > 0) { // the type's bits, sign-extended into the byte
        if ((bits >> subByteBits(et)) != 0)
          return failWith(error, t.text + " does not fit " + std::string(elementTypeName(et)));
        into.setInt(index, into.getInt(index));
      }
      if (isMiniFloat(et) && (bits >> miniFloatBits(et)) != 0) // an f6/f4 code
        return failWith(error, t.text + " does not fit " + std::string(elementTypeName(et)));
      return true;
    }
    if (t.kind != TokenKind::Integer && t.kind != TokenKind::Float)
      return failWith(error, "expected a number in dense<...>, found '" + t.text + "'");
    if (isFloat(et)) {
      double value = std::strtod(t.text.c_str(), nullptr);
      if (!std::isfinite(value) ||
          (et != ElementType::F64 && std::isinf(static_cast<float>(value))))
        return failWith(error, t.text + " is out of range for " + std::string(elementTypeName(et)));
      into.setFloat(index, value);
      if (isMiniFloat(et) && !std::isfinite(into.getFloat(index))) // overflows to inf or NaN
        return failWith(error, t.text + " is out of range for " + std::string(elementTypeName(et)));
      return true;
    }
    if (t.kind == TokenKind::Float)
      return failWith(error,
                      t.text + " is not an integer (" + std::string(elementTypeName(et)) + ")");
    errno = 0;
    if (et == ElementType::UI64) { // past INT64_MAX too; the bits are stored
      const bool negative = t.text.starts_with("-");
      unsigned long long bits = std::strtoull(t.text.c_str(), nullptr, 10);
      if (errno == ERANGE || negative)
        return failWith(error, t.text + " is out of range for ui64");
      into.setInt(index, static_cast<int64_t>(bits));
      return true;
    }
    long long value = std::strtoll(t.text.c_str(), nullptr, 10);
    // Signless integers print either way: i8 takes -128..255.
    // Sub-byte types likewise: i4 takes -8..15.
    const int bits = subByteBits(et);
    long long lo = et == ElementType::I1    ? 0
                   : bits > 0               ? (isSignedInteger(et) ? -(1LL << (bits - 1)) : 0)
                   : et == ElementType::I8  ? -128
                   : et == ElementType::I16 ? INT16_MIN
                   : et == ElementType::I32 ? INT32_MIN
                   : et == ElementType::I64 ? INT64_MIN
                                            : 0;
    long long hi = et == ElementType::I1                               ? 1
                   : bits > 0                                          ? (1LL << bits) - 1
                   : et == ElementType::I8 || et == ElementType::UI8   ? 255
                   : et == ElementType::I16 || et == ElementType::UI16 ? UINT16_MAX
                   : et == ElementType::I32 || et == ElementType::UI32 ? UINT32_MAX
                                                                       : INT64_MAX;
    if (errno == ERANGE || value < lo || value > hi)
      return failWith(error, t.text + " is out of range for " + std::string(elementTypeName(et)));
    into.setInt(index, value);
    return true;
  }

  /// "0x..." of every element's bytes, or of one element (a splat).
  bool hexBytes(const std::string &text, ConstantAttrs &out, std::string *error) {
    if (!text.starts_with("0x"))
      return failWith(error, "a dense string must be hex (\"0x...\")");
    const size_t width = elementByteWidth(type_.elementType);
    const size_t bytes = (text.size() - 2) / 2;
    const auto whole = static_cast<size_t>(type_.numElements()) * width;
    if ((text.size() - 2) % 2 || (bytes != whole && bytes != width))
      return failWith(error, "dense hex data has " + std::to_string(bytes) + " bytes, " +
                                 printType(type_) + " needs " + std::to_string(whole));
    const bool splat = bytes != whole; // one element's bytes, repeated
    Literal literal(splat ? TensorType{type_.elementType, {}} : type_);
    for (size_t i = 0; i < bytes; ++i) {
      char pair[3] = {text[2 + 2 * i], text[3 + 2 * i], 0};
      char *end = nullptr;
      long value = std::strtol(pair, &end, 16);
      if (end != pair + 2)
        return failWith(error, "invalid hex digit in dense data");
      literal.data()[i] = static_cast<std::byte>(value);
    }
    if (type_.elementType == ElementType::I1)
      for (int64_t i = 0; i < literal.numElements(); ++i)
        literal.setInt(i, literal.getInt(i) != 0);
    if (subByteBits(type_.elementType) > 0) // a byte holds the value: wrapped to its bits
      for (int64_t i = 0; i < literal.numElements(); ++i)
        literal.setInt(i, literal.getInt(i));
    if (const int bits = miniFloatBits(type_.elementType); bits > 0 && bits < 8)
      for (int64_t i = 0; i < literal.numElements(); ++i) // an f6/f4 code in its byte
        if ((static_cast<unsigned>(literal.data()[i]) >> bits) != 0)
          return failWith(error, "dense hex data: byte " + std::to_string(i) + " is no " +
                                     std::string(elementTypeName(type_.elementType)) + " code");
    out = splat ? ConstantAttrs::splatOf(type_, std::move(literal))
                : ConstantAttrs::dense(std::move(literal));
    return true;
  }

  Lexer lexer_;
  size_t bodySize_;
  Literal literal_; // what element() and list() fill
  TensorType type_;
  int64_t next_ = 0;
};

std::string floatText(const Literal &literal, int64_t i) {
  ElementType et = literal.elementType();
  double value = literal.getFloat(i);
  if (!std::isfinite(value)) {
    size_t width = elementByteWidth(et);
    unsigned long long bits = 0;
    std::memcpy(&bits, literal.data() + i * width, width);
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%0*llX", static_cast<int>(2 * width), bits);
    return hex;
  }
  char text[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    double back = std::strtod(text, nullptr);
    if (et == ElementType::F64 ? back == value
                               : static_cast<float>(back) == static_cast<float>(value))
      break;
  }
  std::string out = text;
  if (out.find('.') == std::string::npos) { // MLIR float literals need a '.'
    size_t e = out.find('e');
    out.insert(e == std::string::npos ? out.size() : e, ".0");
  }
  return out;
}

std::string elementText(const Literal &literal, int64_t i) {
  ElementType et = literal.elementType();
  if (isComplex(et)) {
    Literal parts(TensorType{complexPartType(et), {2}});
    parts.setComplex(0, literal.getFloat(i), 0);
    parts.setComplex(1, literal.getImag(i), 0);
    return "(" + floatText(parts, 0) + ", " + floatText(parts, 1) + ")";
  }
  if (isFloat(et))
    return floatText(literal, i);
  if (et == ElementType::I1)
    return literal.getInt(i) ? "true" : "false";
  return literal.integerText(i);
}

void printNested(const Literal &literal, size_t dim, int64_t &index, std::string &out) {
  const Shape &shape = literal.shape();
  out += '[';
  for (int64_t k = 0; k < shape[dim]; ++k) {
    if (k)
      out += ", ";
    if (dim + 1 == shape.size())
      out += elementText(literal, index++);
    else
      printNested(literal, dim + 1, index, out);
  }
  out += ']';
}

} // namespace

std::optional<ConstantAttrs> parseDenseBody(std::string_view body, const TensorType &type,
                                            std::string *error) {
  try {
    checkConstantSize(type, "");
  } catch (const GraphError &tooLarge) {
    *error = tooLarge.what();
    return std::nullopt;
  }
  ConstantAttrs constant;
  if (!DenseParser(body, type).parse(constant, error))
    return std::nullopt;
  // Every element is written back as nested lists, one level per dim.
  if (!constant.splat && type.rank() >= kMaxNestingDepth) {
    *error = "a constant of rank " + std::to_string(type.rank()) +
             " nests deeper than a graph file may (" + std::to_string(kMaxNestingDepth) +
             " levels)";
    return std::nullopt;
  }
  return constant;
}

std::string printDenseBody(const ConstantAttrs &constant) {
  const Literal &literal = constant.elements;
  if (constant.splat)
    return constant.type.numElements() > 0 ? elementText(literal, 0) : "";
  if (literal.shape().empty())
    return literal.numElements() ? elementText(literal, 0) : "";
  std::string out;
  int64_t index = 0;
  printNested(literal, 0, index, out);
  return out;
}

} // namespace shardgen::mlir
