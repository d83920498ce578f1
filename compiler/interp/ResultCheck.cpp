#include "compiler/interp/ResultCheck.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace shardgen {
namespace {

std::string formatDouble(double value, int precision) {
  std::ostringstream out;
  out.precision(precision);
  out << value;
  return out.str();
}

std::string formatValue(const Literal &literal, int64_t i) {
  if (isComplex(literal.elementType())) {
    const int precision = literal.elementType() == ElementType::C128 ? 17 : 9;
    return "(" + formatDouble(literal.getFloat(i), precision) + ", " +
           formatDouble(literal.getImag(i), precision) + ")";
  }
  if (isFloat(literal.elementType()))
    return formatDouble(literal.getFloat(i), literal.elementType() == ElementType::F64 ? 17 : 9);
  return literal.integerText(i);
}

std::vector<int64_t> unflatten(const Shape &shape, int64_t linear) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return index;
}

bool floatsAgree(double x, double y, double bound) {
  if (std::isnan(x) || std::isnan(y))
    return std::isnan(x) && std::isnan(y);
  if (std::isinf(x) || std::isinf(y))
    return x == y;
  if (bound == 0) // the same operations in the same order: the same bits
    return x == y && std::signbit(x) == std::signbit(y);
  return std::fabs(x - y) <= bound;
}

} // namespace

std::string OutputMismatch::describe() const {
  std::string text = "output " + std::to_string(output);
  if (!name.empty())
    text += " (" + name + ")";
  if (index.empty() && bound.empty())
    return text + " has type " + actual + ", expected " + expected;
  text += " differs at index [";
  for (size_t i = 0; i < index.size(); ++i)
    text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]: got " + actual + ", expected " + expected + ", allowed difference " + bound;
}

std::optional<OutputMismatch> compareOutputs(const std::vector<Literal> &actual,
                                             const BoundedEvaluation &expected,
                                             const ToleranceOverride &tolerance,
                                             const std::vector<std::string> &names,
                                             MismatchSearch search) {
  std::optional<OutputMismatch> reported;
  double reportedExcess = -1; // how far past its bound the reported element is
  int64_t differing = 0;
  for (size_t o = 0; o < expected.values.size(); ++o) {
    const Literal &a = actual.at(o), &e = expected.values[o];
    const Literal &bounds = expected.bounds.at(o);
    const std::string name = o < names.size() ? names[o] : "";
    if (a.type() != e.type())
      return OutputMismatch{o, name, {}, printType(a.type()), printType(e.type()), ""};
    const bool isFloatType = isFloat(e.elementType()) || isComplex(e.elementType());
    for (int64_t i = 0; i < e.numElements(); ++i) {
      double bound = bounds.as<double>()[i];
      bool agree;
      double difference; // |actual - expected|, infinite past any finite one
      if (isFloatType) {
        const double x = a.getFloat(i), y = e.getFloat(i);
        // A complex element's bound holds for each part (getImag is 0 otherwise).
        const double xi = a.getImag(i), yi = e.getImag(i);
        if (tolerance.active())
          bound = tolerance.atol.value_or(0) +
                  tolerance.rtol.value_or(0) * std::max(std::fabs(y), std::fabs(yi));
        agree = std::isinf(bound) || (floatsAgree(x, y, bound) && floatsAgree(xi, yi, bound));
        const bool finite =
            std::isfinite(x) && std::isfinite(y) && std::isfinite(xi) && std::isfinite(yi);
        difference = finite ? std::max(std::fabs(x - y), std::fabs(xi - yi)) : HUGE_VAL;
      } else {
        const int64_t x = a.getInt(i), y = e.getInt(i);
        difference = std::fabs(static_cast<double>(x) - static_cast<double>(y));
        agree = x == y || std::isinf(bound) || difference <= bound;
      }
      if (agree)
        continue;
      ++differing;
      const double excess = std::isinf(difference) ? HUGE_VAL : std::max(difference - bound, 0.0);
      if (!reported || excess > reportedExcess) {
        reported = OutputMismatch{o,
                                  name,
                                  unflatten(e.shape(), i),
                                  formatValue(a, i),
                                  formatValue(e, i),
                                  formatDouble(bound, 3)};
        reportedExcess = excess;
      }
      if (search == MismatchSearch::First)
        return reported;
    }
  }
  if (reported)
    reported->differing = differing;
  return reported;
}

std::vector<std::string> outputNames(const Graph &graph) {
  std::vector<std::string> names;
  for (const RegionResult &result : graph.main.results)
    names.push_back(graph.value(result.value).name);
  return names;
}

} // namespace shardgen
