#include "test/support/TestValues.h"

#include <cmath>
#include <random>

namespace shardgen::testing {

std::vector<Literal> randomInputs(const Graph &graph, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Literal> inputs;
  for (const auto &arg : graph.main.args) {
    Literal literal(graph.type(arg.value));
    bool boolean = literal.elementType() == ElementType::I1;
    bool unsignedType = isUnsignedInteger(literal.elementType());
    std::uniform_int_distribution<int> pick(boolean ? 0 : (unsignedType ? 0 : -3), boolean ? 1 : 3);
    for (int64_t i = 0; i < literal.numElements(); ++i) {
      int value = pick(random);
      if (isComplex(literal.elementType()))
        literal.setComplex(i, value, pick(random));
      else if (isFloat(literal.elementType()))
        literal.setFloat(i, value);
      else
        literal.setInt(i, value);
    }
    inputs.push_back(std::move(literal));
  }
  return inputs;
}

bool literalsClose(const Literal &actual, const Literal &expected, double tolerance,
                   std::string *why) {
  if (actual.type() != expected.type()) {
    if (why)
      *why = "type " + printType(actual.type()) + " != " + printType(expected.type());
    return false;
  }
  bool floating = isFloat(expected.elementType()) || isComplex(expected.elementType());
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    bool close;
    std::string text;
    if (floating) {
      double a = actual.getFloat(i), e = expected.getFloat(i);
      // A complex element's imaginary parts too (getImag is 0 for floats).
      double ai = actual.getImag(i), ei = expected.getImag(i);
      close = ((std::isnan(a) && std::isnan(e)) || a == e ||
               std::fabs(a - e) <= tolerance * (1 + std::fabs(e))) &&
              ((std::isnan(ai) && std::isnan(ei)) || ai == ei ||
               std::fabs(ai - ei) <= tolerance * (1 + std::fabs(ei)));
      text = std::to_string(a) + (ai != 0 || ei != 0 ? "+" + std::to_string(ai) + "i" : "") +
             " vs expected " + std::to_string(e) +
             (ai != 0 || ei != 0 ? "+" + std::to_string(ei) + "i" : "");
    } else {
      close = actual.getInt(i) == expected.getInt(i);
      text =
          std::to_string(actual.getInt(i)) + " vs expected " + std::to_string(expected.getInt(i));
    }
    if (!close) {
      if (why)
        *why = "element " + std::to_string(i) + ": " + text;
      return false;
    }
  }
  return true;
}

} // namespace shardgen::testing
