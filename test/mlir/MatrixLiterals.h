#pragma once
// Literals of real or complex matrices from and to std::complex<double>:
// what the linear algebra tests (LAPACK calls, triangular_solve) build
// their inputs with and read their results by.

#include <complex>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "compiler/ir/Literal.h"
#include "compiler/ir/TensorType.h"

namespace shardgen::testing {

/// A literal of `type` (real: the real parts) holding `values`.
inline Literal matrixLiteral(const std::string &type,
                             const std::vector<std::complex<double>> &values) {
  std::string error;
  Literal literal(*parseType(type, &error));
  REQUIRE(literal.numElements() == static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (isComplex(literal.type().elementType))
      literal.setComplex(static_cast<int64_t>(i), values[i].real(), values[i].imag());
    else
      literal.setFloat(static_cast<int64_t>(i), values[i].real());
  }
  return literal;
}

/// Element `index` of a real or complex literal.
inline std::complex<double> complexAt(const Literal &literal, int64_t index) {
  return isComplex(literal.type().elementType)
             ? std::complex<double>(literal.getFloat(index), literal.getImag(index))
             : std::complex<double>(literal.getFloat(index), 0);
}

} // namespace shardgen::testing
