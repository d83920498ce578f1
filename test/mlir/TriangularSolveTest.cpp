// stablehlo.triangular_solve, read as a substitution (TriangularSolve.h):
// the spec's example, then every form (left and right side, lower and
// upper, unit diagonal, NO_TRANSPOSE, TRANSPOSE, ADJOINT on complex, batch
// dims) checked by multiplying back: op(a) x = b or x op(a) = b, with NaN in
// the triangle a solve must not read. The JAX-generated testdata programs
// (scripts/jax-testdata.py --match triangular) pass against JAX's values.
#include <complex>

#include <doctest/doctest.h>

#include "compiler/interp/Interpreter.h"
#include "test/mlir/MatrixLiterals.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;

namespace {

using Complex = std::complex<double>;
using testing::evalFloats;
using testing::importErrorOf;
using testing::importVerified;
using testing::matrixLiteral;

std::string solveText(const std::string &a, const std::string &b, const std::string &aType,
                      const std::string &bType, const std::string &attributes) {
  return "func.func @main() -> " + bType + " {\n  %a = stablehlo.constant dense<" + a +
         "> : " + aType + "\n  %b = stablehlo.constant dense<" + b + "> : " + bType +
         "\n  %x = \"stablehlo.triangular_solve\"(%a, %b) <{" + attributes + "}> : (" + aType +
         ", " + bType + ") -> " + bType + "\n  return %x : " + bType + "\n}\n";
}

std::string attributesOf(bool left, bool lower, bool unit, const std::string &transpose) {
  return std::string("left_side = ") + (left ? "true" : "false") +
         ", lower = " + (lower ? "true" : "false") + ", transpose_a = #stablehlo<transpose " +
         transpose + ">, unit_diagonal = " + (unit ? "true" : "false");
}

/// @main(%a, %b) solving with `attributes`.
std::string solveOfArguments(const std::string &aType, const std::string &bType,
                             const std::string &attributes) {
  return "func.func @main(%a: " + aType + ", %b: " + bType + ") -> " + bType +
         " {\n  %x = \"stablehlo.triangular_solve\"(%a, %b) <{" + attributes + "}> : (" + aType +
         ", " + bType + ") -> " + bType + "\n  return %x : " + bType + "\n}\n";
}

} // namespace

TEST_CASE("triangular_solve: the spec's example") {
  CHECK(evalFloats(solveText("[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]",
                             "[[2.0, 0.0, 0.0], [4.0, 8.0, 0.0], [6.0, 10.0, 12.0]]",
                             "tensor<3x3xf32>", "tensor<3x3xf32>",
                             attributesOf(true, true, false, "NO_TRANSPOSE"))) ==
        std::vector<double>{2, 0, 0, 0, 2, 0, 0, 0, 2});
}

TEST_CASE("triangular_solve: every form solves op(a) x = b or x op(a) = b, batched") {
  // Two batches of an n x n complex a: its triangle well conditioned, NaN
  // in the other one; b of n x 2 (left) or 2 x n (right).
  // n = 70 takes the blocked solve (rows 64 at a time, padded to 128).
  const int64_t m = 2, batches = 2;
  for (int64_t n : {3, 70})
    for (bool left : {true, false})
      for (bool lower : {true, false})
        for (bool unit : {false, true})
          for (const char *transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
            CAPTURE(n);
            CAPTURE(left);
            CAPTURE(lower);
            CAPTURE(unit);
            CAPTURE(std::string(transpose));
            std::vector<Complex> a(batches * n * n), b(batches * n * m);
            for (int64_t k = 0; k < batches; ++k)
              for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j) {
                  const bool inside = lower ? j <= i : j >= i;
                  a[(k * n + i) * n + j] =
                      !inside ? Complex(std::nan(""), 0)
                      : i == j
                          ? Complex(4.0 + static_cast<double>(i + k), 0.5)
                          : Complex(0.75 * static_cast<double>(i + 2 * j + 1) / n, -0.5 * k / n);
                }
            for (size_t i = 0; i < b.size(); ++i)
              b[i] = Complex(static_cast<double>(i % 5) - 1.5, 0.25 * static_cast<double>(i % 3));
            const std::string size = std::to_string(n);
            const std::string aType = "tensor<2x" + size + "x" + size + "xcomplex<f64>>";
            const std::string bType = left ? "tensor<2x" + size + "x2xcomplex<f64>>"
                                           : "tensor<2x2x" + size + "xcomplex<f64>>";
            Graph graph = importVerified(
                solveOfArguments(aType, bType, attributesOf(left, lower, unit, transpose)));
            std::vector<Literal> out =
                evaluate(graph, {matrixLiteral(aType, a), matrixLiteral(bType, b)});
            REQUIRE(out.size() == 1);
            // op(a)[i][j] as the solve reads it.
            auto opA = [&](int64_t k, int64_t i, int64_t j) {
              const bool flip = std::string(transpose) != "NO_TRANSPOSE";
              const int64_t r = flip ? j : i, c = flip ? i : j;
              if (unit && r == c)
                return Complex(1, 0);
              if (lower ? c > r : c < r)
                return Complex(0, 0);
              const Complex value = a[(k * n + r) * n + c];
              return std::string(transpose) == "ADJOINT" ? std::conj(value) : value;
            };
            auto x = [&](int64_t index) { return testing::complexAt(out[0], index); };
            double worst = 0;
            for (int64_t k = 0; k < batches; ++k)
              for (int64_t i = 0; i < (left ? n : m); ++i)
                for (int64_t j = 0; j < (left ? m : n); ++j) {
                  Complex sum = 0;
                  for (int64_t t = 0; t < n; ++t)
                    sum += left ? opA(k, i, t) * x((k * n + t) * m + j)
                                : x((k * m + i) * n + t) * opA(k, t, j);
                  const int64_t at = left ? (k * n + i) * m + j : (k * m + i) * n + j;
                  worst = std::max(worst, std::abs(sum - b[at]));
                }
            CHECK(worst < 1e-12);
          }
}

TEST_CASE("triangular_solve: an empty system solves to its empty right side") {
  for (bool left : {true, false}) {
    const std::string bType = left ? "tensor<2x0x3xf32>" : "tensor<2x3x0xf32>";
    Graph graph = importVerified(solveOfArguments("tensor<2x0x0xf32>", bType,
                                                  attributesOf(left, true, false, "NO_TRANSPOSE")));
    std::string error;
    std::vector<Literal> out = evaluate(graph, {Literal(*parseType("tensor<2x0x0xf32>", &error)),
                                                Literal(*parseType(bType, &error))});
    REQUIRE(out.size() == 1);
    CHECK(out[0].numElements() == 0);
  }
}

TEST_CASE("triangular_solve: errors name the op") {
  auto errorOf = [](const std::string &aType, const std::string &bType,
                    const std::string &attributes) {
    return importErrorOf(solveText("0.0", "0.0", aType, bType, attributes));
  };
  const std::string plain = attributesOf(true, true, false, "NO_TRANSPOSE");
  auto [place, message] = errorOf("tensor<3x4xf32>", "tensor<3x2xf32>", plain);
  CHECK(place == "4:3");
  CHECK(message.find("stablehlo.triangular_solve needs square matrices a, got tensor<3x4xf32>") !=
        std::string::npos);
  std::tie(place, message) = errorOf("tensor<3x3xf32>", "tensor<2x3xf32>", plain);
  CHECK(message.find("needs b's rows to match a's 3, got tensor<2x3xf32>") != std::string::npos);
  std::tie(place, message) = errorOf("tensor<2x3x3xf32>", "tensor<3x3x2xf32>", plain);
  CHECK(message.find("needs a and b of the same batch dims") != std::string::npos);
  std::tie(place, message) = errorOf("tensor<3x3xi32>", "tensor<3x2xi32>", plain);
  CHECK(message.find("takes floating-point or complex operands, got tensor<3x3xi32>") !=
        std::string::npos);
  std::tie(place, message) =
      errorOf("tensor<3x3xf32>", "tensor<3x2xf32>", attributesOf(true, true, false, "CONJUGATE"));
  CHECK(message.find("'transpose_a' must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got 'CONJUGATE'") !=
        std::string::npos);
  std::tie(place, message) = errorOf("tensor<3x3xf32>", "tensor<3x2xf32>", "lower = true");
  CHECK(message.find("needs 'left_side'") != std::string::npos);
}
