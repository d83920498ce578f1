#include "compiler/cli/LiteralPrinter.h"

#include <cmath>
#include <cstdio>

namespace shardgen::cli {

static std::string formatFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

static std::string formatElement(const Literal &literal, int64_t index) {
  ElementType type = literal.elementType();
  if (type == ElementType::I1)
    return literal.getInt(index) ? "true" : "false";
  if (isComplex(type)) // as numpy: (re+imj)
    return "(" + formatFloat(literal.getFloat(index)) +
           (std::signbit(literal.getImag(index)) || std::isnan(literal.getImag(index)) ? "" : "+") +
           formatFloat(literal.getImag(index)) + "j)";
  if (!isFloat(type))
    return literal.integerText(index);
  return formatFloat(literal.getFloat(index));
}

static void formatDim(const Literal &literal, const std::vector<int64_t> &strides, size_t dim,
                      int64_t offset, int64_t edgeItems, std::string &out) {
  if (dim == literal.shape().size()) {
    out += formatElement(literal, offset);
    return;
  }
  int64_t size = literal.shape()[dim];
  bool elide = size > 2 * edgeItems;
  out += '[';
  for (int64_t i = 0; i < size; ++i) {
    if (elide && i == edgeItems) {
      bool innermost = dim + 1 == literal.shape().size();
      out += innermost ? "..., " : "...,\n" + std::string(dim + 1, ' ');
      i = size - edgeItems;
    }
    formatDim(literal, strides, dim + 1, offset + i * strides[dim], edgeItems, out);
    if (i + 1 < size)
      out += dim + 1 == literal.shape().size() ? ", " : ",\n" + std::string(dim + 1, ' ');
  }
  out += ']';
}

std::string formatLiteral(const Literal &literal, int64_t edgeItems) {
  std::string out;
  formatDim(literal, literal.strides(), 0, 0, edgeItems, out);
  return out;
}

} // namespace shardgen::cli
