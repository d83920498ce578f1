#include "test/aot/OutputComparison.h"

#include <cmath>
#include <sstream>

namespace shardgen::testing {

Tolerance elementTolerance(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return {1e-4, 1e-4};
  case ElementType::F64:
    return {1e-10, 1e-10};
  case ElementType::F16:
    return {1e-2, 1e-2};
  case ElementType::BF16:
    return {4e-2, 4e-2};
  case ElementType::C64: // each part
    return {1e-4, 1e-4};
  case ElementType::C128:
    return {1e-10, 1e-10};
  default:
    return {0, 0};
  }
}

static bool floatsMatch(double actual, double expected, const Tolerance &tolerance) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected))
    return actual == expected;
  return std::fabs(actual - expected) <= tolerance.atol + tolerance.rtol * std::fabs(expected);
}

std::string compareElementwise(const Literal &actual, const Literal &expected) {
  if (actual.type() != expected.type())
    return "type " + printType(actual.type()) + ", expected " + printType(expected.type());
  const Tolerance tolerance = elementTolerance(expected.elementType());
  const bool floating = isFloat(expected.elementType()) || isComplex(expected.elementType());
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    // getImag is 0 for real types: a complex element's parts each match.
    const bool match = floating
                           ? floatsMatch(actual.getFloat(i), expected.getFloat(i), tolerance) &&
                                 floatsMatch(actual.getImag(i), expected.getImag(i), tolerance)
                           : actual.getInt(i) == expected.getInt(i);
    if (match)
      continue;
    std::ostringstream out;
    out.precision(9);
    out << "element " << i << ": got ";
    if (floating)
      out << actual.getFloat(i) << (isComplex(expected.elementType()) ? "," : "")
          << (isComplex(expected.elementType()) ? std::to_string(actual.getImag(i)) : "")
          << ", expected " << expected.getFloat(i);
    else
      out << actual.getInt(i) << ", expected " << expected.getInt(i);
    return out.str();
  }
  return "";
}

} // namespace shardgen::testing
