// LAPACK's getrf and potrf custom calls as JAX prints them on CPU, read as
// StableHLO ops (LapackCalls.h): JAX's own LU example, then batches of
// every shape and element type checked against a partial-pivoting
// reference (the same pivots, P a = L U) and by multiplying the Cholesky
// factors back, info on singular and indefinite matrices, and the errors.
// syevd / heevd (eigh) by JAX's own criteria: V^H V = I, A V = V diag(w),
// the eigenvalues of JAX's example and the exact ones of constructed
// spectra, the triangle not named never read.
#include <cmath>
#include <complex>

#include <doctest/doctest.h>

#include "compiler/interp/Interpreter.h"
#include "test/mlir/MatrixLiterals.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;

namespace {

using Complex = std::complex<double>;
using testing::complexAt;
using testing::importErrorOf;
using testing::importVerified;
using testing::matrixLiteral;

/// @main(%a) returning every result of `target` on `aType`.
std::string callText(const std::string &target, const std::string &aType,
                     const std::vector<std::string> &resultTypes, const std::string &config) {
  std::string results, returned;
  for (size_t i = 0; i < resultTypes.size(); ++i) {
    results += (i ? ", " : "") + resultTypes[i];
    returned += (i ? ", %r#" : "%r#") + std::to_string(i);
  }
  return "func.func @main(%a: " + aType + ") -> (" + results +
         ") {\n  %r:" + std::to_string(resultTypes.size()) + " = stablehlo.custom_call @" + target +
         "(%a) {mhlo.backend_config = " + config +
         ", operand_layouts = [dense<[0, 1]> : " + "tensor<2xindex>]} : (" + aType + ") -> (" +
         results + ")\n  return " + returned + " : " + results + "\n}\n";
}

/// Values of no pattern an LU could exploit, complex where asked.
std::vector<Complex> matrices(int64_t count, bool complex, int seed) {
  std::vector<Complex> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    // Of full rank, no two magnitudes near a tie (rounding to f32 cannot
    // change a pivot).
    const double t = static_cast<double>(i);
    const double x = std::sin(0.37 * t * t + seed);
    const double y = std::cos(0.61 * t * t + 2 * seed);
    values[static_cast<size_t>(i)] = Complex(x, complex ? y : 0);
  }
  return values;
}

/// LAPACK's unblocked getf2 on one m x n matrix (row-major): the pivots
/// (1-based) and info.
std::pair<std::vector<int64_t>, int64_t> referencePivots(std::vector<Complex> a, int64_t m,
                                                         int64_t n) {
  std::vector<int64_t> pivots;
  int64_t info = 0;
  for (int64_t k = 0; k < std::min(m, n); ++k) {
    int64_t p = k;
    auto magnitude = [](Complex z) { return std::abs(z.real()) + std::abs(z.imag()); };
    for (int64_t i = k + 1; i < m; ++i)
      if (magnitude(a[i * n + k]) > magnitude(a[p * n + k]))
        p = i;
    pivots.push_back(p + 1);
    for (int64_t j = 0; j < n; ++j)
      std::swap(a[k * n + j], a[p * n + j]);
    const Complex d = a[k * n + k];
    if (d == Complex(0, 0)) {
      info = info ? info : k + 1;
      continue;
    }
    for (int64_t i = k + 1; i < m; ++i) {
      a[i * n + k] /= d;
      for (int64_t j = k + 1; j < n; ++j)
        a[i * n + j] -= a[i * n + k] * a[k * n + j];
    }
  }
  return {pivots, info};
}

} // namespace

TEST_CASE("lapack getrf: JAX's example, the 3 x 3 iota, singular") {
  for (const char *element : {"f32", "complex<f64>"}) {
    CAPTURE(std::string(element));
    const std::string type = std::string("tensor<3x3x") + element + ">";
    const std::string target =
        std::string(element) == "f32" ? "lapack_sgetrf_ffi" : "lapack_zgetrf_ffi";
    Graph graph =
        importVerified(callText(target, type, {type, "tensor<3xi32>", "tensor<i32>"}, "{}"));
    std::vector<Complex> iota;
    for (int i = 0; i < 9; ++i)
      iota.emplace_back(i, 0);
    std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, iota)});
    REQUIRE(out.size() == 3);
    const std::vector<double> lu = {6, 7, 8, 0, 1, 2, 0.5, 0.5, 0};
    for (int64_t i = 0; i < 9; ++i)
      CHECK(complexAt(out[0], i) == Complex(lu[i], 0));
    for (int64_t i = 0; i < 3; ++i)
      CHECK(out[1].getInt(i) == 3);
    CHECK(out[2].getInt(0) == 3); // U's last diagonal element is 0
  }
}

TEST_CASE("lapack getrf: the pivots LAPACK picks and P a = L U, batched, every shape") {
  struct Case {
    const char *target, *element;
    int64_t m, n;
  };
  const int64_t batches = 2;
  for (const Case &c :
       {Case{"lapack_sgetrf_ffi", "f32", 5, 5}, Case{"lapack_dgetrf_ffi", "f64", 6, 4},
        Case{"lapack_cgetrf_ffi", "complex<f32>", 3, 5},
        Case{"lapack_zgetrf_ffi", "complex<f64>", 7, 7},
        // Above 64 columns: a panel at a time, padded.
        Case{"lapack_dgetrf_ffi", "f64", 130, 70},
        Case{"lapack_zgetrf_ffi", "complex<f64>", 66, 140}}) {
    CAPTURE(std::string(c.target));
    const bool complex = std::string(c.element).starts_with("complex");
    const int64_t k = std::min(c.m, c.n);
    const std::string dims = std::to_string(c.m) + "x" + std::to_string(c.n);
    const std::string type = "tensor<2x" + dims + "x" + c.element + ">";
    Graph graph = importVerified(callText(
        c.target, type, {type, "tensor<2x" + std::to_string(k) + "xi32>", "tensor<2xi32>"}, "{}"));
    std::vector<Complex> a = matrices(batches * c.m * c.n, complex, 1);
    // The second matrix's second column is 0: info 2, and LAPACK goes on.
    for (int64_t i = 0; i < c.m; ++i)
      a[(c.m + i) * c.n + 1] = 0;
    std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, a)});
    REQUIRE(out.size() == 3);
    const double tolerance = std::string(c.element).find("f32") != std::string::npos ? 1e-5 : 1e-12;
    for (int64_t b = 0; b < batches; ++b) {
      CAPTURE(b);
      const std::vector<Complex> one(a.begin() + b * c.m * c.n, a.begin() + (b + 1) * c.m * c.n);
      auto [pivots, info] = referencePivots(one, c.m, c.n);
      for (int64_t i = 0; i < k; ++i)
        CHECK(out[1].getInt(b * k + i) == pivots[static_cast<size_t>(i)]);
      CHECK(out[2].getInt(b) == info);
      CHECK(info == (b == 1 && c.n > 1 ? 2 : 0));
      // P a: a's rows swapped as the pivots say.
      std::vector<Complex> pa = one;
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < c.n; ++j)
          std::swap(pa[i * c.n + j], pa[(pivots[static_cast<size_t>(i)] - 1) * c.n + j]);
      auto factor = [&](int64_t i, int64_t j) {
        return complexAt(out[0], (b * c.m + i) * c.n + j);
      };
      double worst = 0;
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          Complex sum = 0;
          for (int64_t t = 0; t <= std::min({i, j, k - 1}); ++t)
            sum += (t == i ? Complex(1, 0) : factor(i, t)) * factor(t, j);
          worst = std::max(worst, std::abs(sum - pa[i * c.n + j]));
        }
      CHECK(worst < tolerance * 10);
    }
  }
}

TEST_CASE("lapack potrf: L L^H = a or U^H U = a, the other triangle kept, info") {
  // n = 70: a panel of 64 columns at a time, padded to 128.
  for (int64_t n : {5, 70})
    for (const char *target : {"lapack_spotrf_ffi", "lapack_zpotrf_ffi"})
      for (bool lower : {true, false}) {
        CAPTURE(n);
        CAPTURE(std::string(target));
        CAPTURE(lower);
        const bool complex = std::string(target) == "lapack_zpotrf_ffi";
        const std::string type = "tensor<2x" + std::to_string(n) + "x" + std::to_string(n) + "x" +
                                 (complex ? "complex<f64>" : "f32") + ">";
        Graph graph = importVerified(callText(target, type, {type, "tensor<2xi32>"},
                                              lower ? "{uplo = 76 : ui8}" : "{uplo = 85 : ui8}"));
        // a = g g^H + 2 I, its other triangle 99 (never read); the second
        // matrix has a[2][2] = -50: its third leading minor is not positive.
        std::vector<Complex> g = matrices(n * n, complex, 3), a(2 * n * n);
        for (int64_t b = 0; b < 2; ++b)
          for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) {
              Complex sum = i == j ? 2 : 0;
              for (int64_t t = 0; t < n; ++t)
                sum += g[i * n + t] * std::conj(g[j * n + t]);
              const bool mine = lower ? j <= i : j >= i;
              a[(b * n + i) * n + j] = !mine                          ? Complex(99, 0)
                                       : (b == 1 && i == 2 && j == 2) ? -50
                                                                      : sum;
            }
        std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, a)});
        REQUIRE(out.size() == 2);
        CHECK(out[1].getInt(0) == 0);
        CHECK(out[1].getInt(1) == 3);
        auto factor = [&](int64_t i, int64_t j) { return complexAt(out[0], i * n + j); };
        double worst = 0;
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j) {
            const bool mine = lower ? j <= i : j >= i;
            if (!mine) {
              CHECK(factor(i, j) == Complex(99, 0));
              continue;
            }
            Complex sum = 0; // (L L^H)_ij, or (U^H U)_ij
            for (int64_t t = 0; t < n; ++t)
              sum += lower ? (t <= j ? factor(i, t) * std::conj(factor(j, t)) : 0)
                           : (t <= i ? std::conj(factor(t, i)) * factor(t, j) : 0);
            worst = std::max(worst, std::abs(sum - a[i * n + j]));
          }
        CHECK(worst < (complex ? 1e-12 : 1e-4));
        for (int64_t i = 0; i < n; ++i)
          CHECK(factor(i, i).imag() == 0);
      }
}

namespace {

/// LAPACK's unblocked geqr2 (dlarfg / zlarfg, H^H applied) on one m x n
/// matrix (row-major), in double: the factored matrix and the taus.
std::pair<std::vector<Complex>, std::vector<Complex>> referenceQr(std::vector<Complex> a, int64_t m,
                                                                  int64_t n) {
  std::vector<Complex> taus;
  for (int64_t i = 0; i < std::min(m, n); ++i) {
    double norm = 0;
    for (int64_t r = i + 1; r < m; ++r)
      norm += std::norm(a[r * n + i]);
    norm = std::sqrt(norm);
    const Complex alpha = a[i * n + i];
    Complex tau = 0;
    if (norm != 0 || alpha.imag() != 0) {
      const double size = std::sqrt(std::norm(alpha) + norm * norm);
      const double beta = alpha.real() < 0 ? size : -size;
      tau = Complex((beta - alpha.real()) / beta, -alpha.imag() / beta);
      const Complex scale = 1.0 / (alpha - beta);
      for (int64_t r = i + 1; r < m; ++r)
        a[r * n + i] *= scale;
      a[i * n + i] = beta;
    }
    taus.push_back(tau);
    // C - conj(tau) v (C^H v)^H on the columns right of i.
    for (int64_t j = i + 1; j < n; ++j) {
      Complex w = std::conj(a[i * n + j]);
      for (int64_t r = i + 1; r < m; ++r)
        w += std::conj(a[r * n + j]) * a[r * n + i];
      for (int64_t r = i; r < m; ++r)
        a[r * n + j] -= std::conj(tau) * (r == i ? 1.0 : a[r * n + i]) * std::conj(w);
    }
  }
  return {a, taus};
}

} // namespace

TEST_CASE("lapack geqrf and orgqr/ungqr: LAPACK's reflectors, Q R = a, Q^H Q = I, batched") {
  struct Case {
    char letter;
    const char *element, *product;
    int64_t m, n;
  };
  for (const Case &c :
       {Case{'s', "f32", "orgqr", 3, 3}, Case{'d', "f64", "orgqr", 7, 4},
        Case{'c', "complex<f32>", "ungqr", 5, 5}, Case{'z', "complex<f64>", "ungqr", 9, 6},
        // Above 8 reflectors: panels applied as I - V T V^H, padded.
        Case{'d', "f64", "orgqr", 40, 21}, Case{'z', "complex<f64>", "ungqr", 19, 19}}) {
    CAPTURE(c.letter);
    const bool complex = std::string(c.element).starts_with("complex");
    const bool single = std::string(c.element).find("f32") != std::string::npos;
    const std::string dims = std::to_string(c.m) + "x" + std::to_string(c.n);
    const std::string type = "tensor<2x" + dims + "x" + c.element + ">",
                      taus = "tensor<2x" + std::to_string(c.n) + "x" + c.element + ">";
    const std::string prefix = std::string("lapack_") + c.letter;
    Graph graph = importVerified(
        "func.func @main(%a: " + type + ") -> (" + type + ", " + taus + ", " + type +
        ") {\n  %r:2 = stablehlo.custom_call @" + prefix + "geqrf_ffi(%a) " +
        "{mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = \"1\"}} : (" +
        type + ") -> (" + type + ", " + taus + ")\n  %q = stablehlo.custom_call @" + prefix +
        c.product + "_ffi(%r#0, %r#1) {mhlo.backend_config = {}} : (" + type + ", " + taus +
        ") -> " + type + "\n  return %r#0, %r#1, %q : " + type + ", " + taus + ", " + type +
        "\n}\n");
    std::vector<Complex> a = matrices(2 * c.m * c.n, complex, 4);
    // The first matrix is JAX's example (the iota) where it is 3 x 3.
    if (c.m == 3)
      for (int64_t i = 0; i < 9; ++i)
        a[i] = static_cast<double>(i);
    // The second's first column is 0 below a real diagonal: tau 0 (H = I).
    for (int64_t r = 1; r < c.m; ++r)
      a[(c.m + r) * c.n] = 0;
    a[c.m * c.n] = a[c.m * c.n].real();
    std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, a)});
    REQUIRE(out.size() == 3);
    const double tolerance = single ? 1e-5 : 1e-12;
    for (int64_t b = 0; b < 2; ++b) {
      CAPTURE(b);
      const std::vector<Complex> one(a.begin() + b * c.m * c.n, a.begin() + (b + 1) * c.m * c.n);
      auto [factored, tauValues] = referenceQr(one, c.m, c.n);
      double worst = 0;
      for (int64_t i = 0; i < c.m * c.n; ++i)
        worst = std::max(worst, std::abs(complexAt(out[0], b * c.m * c.n + i) - factored[i]));
      for (int64_t i = 0; i < c.n; ++i)
        worst = std::max(worst, std::abs(complexAt(out[1], b * c.n + i) - tauValues[i]));
      CHECK(worst < tolerance * 10);
      if (b == 1)
        CHECK(complexAt(out[1], c.n) == Complex(0, 0));
      // Q (m x n) R (n x n, out[0]'s upper triangle) = a; Q^H Q = I.
      auto q = [&](int64_t i, int64_t j) { return complexAt(out[2], (b * c.m + i) * c.n + j); };
      auto r = [&](int64_t i, int64_t j) {
        return j >= i ? complexAt(out[0], (b * c.m + i) * c.n + j) : Complex(0, 0);
      };
      double product = 0, orthonormal = 0;
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          Complex sum = 0;
          for (int64_t t = 0; t < c.n; ++t)
            sum += q(i, t) * r(t, j);
          product = std::max(product, std::abs(sum - one[i * c.n + j]));
        }
      for (int64_t i = 0; i < c.n; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          Complex sum = 0;
          for (int64_t t = 0; t < c.m; ++t)
            sum += std::conj(q(t, i)) * q(t, j);
          orthonormal = std::max(orthonormal, std::abs(sum - (i == j ? 1.0 : 0.0)));
        }
      CHECK(product < tolerance * 100);
      CHECK(orthonormal < tolerance * 10);
    }
  }
}

TEST_CASE("lapack custom calls: empty matrices and no reflectors do nothing, as LAPACK") {
  Graph lu =
      importVerified(callText("lapack_sgetrf_ffi", "tensor<2x0x5xf32>",
                              {"tensor<2x0x5xf32>", "tensor<2x0xi32>", "tensor<2xi32>"}, "{}"));
  std::vector<Literal> out = evaluate(lu, {matrixLiteral("tensor<2x0x5xf32>", {})});
  REQUIRE(out.size() == 3);
  CHECK(out[2].getInt(0) == 0);
  CHECK(out[2].getInt(1) == 0);
  Graph cholesky = importVerified(
      callText("lapack_dpotrf_ffi", "tensor<0x0xf64>", {"tensor<0x0xf64>", "tensor<i32>"}, "{}"));
  out = evaluate(cholesky, {matrixLiteral("tensor<0x0xf64>", {})});
  CHECK(out[1].getInt(0) == 0);
  // orgqr of no reflectors: the identity's first columns.
  Graph product = importVerified(
      "func.func @main(%a: tensor<3x2xf32>, %t: tensor<0xf32>) -> tensor<3x2xf32> {\n"
      "  %q = stablehlo.custom_call @lapack_sorgqr_ffi(%a, %t) {mhlo.backend_config = {}} : "
      "(tensor<3x2xf32>, tensor<0xf32>) -> tensor<3x2xf32>\n  return %q : tensor<3x2xf32>\n}\n");
  out = evaluate(product, {matrixLiteral("tensor<3x2xf32>", {7, 7, 7, 7, 7, 7}),
                           matrixLiteral("tensor<0xf32>", {})});
  const std::vector<double> identity = {1, 0, 0, 1, 0, 0};
  for (int64_t i = 0; i < 6; ++i)
    CHECK(out[0].getFloat(i) == identity[i]);
}

TEST_CASE("lapack custom calls: the call's result shardings constrain the results") {
  Graph graph = importVerified(R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4xi32>) {
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>, <@mesh, [{"x"}]>]>} : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4xi32>)
  return %r#0, %r#1 : tensor<4x3x3xf32>, tensor<4xi32>
}
)");
  for (size_t i = 0; i < 2; ++i) {
    const Op *producer = nullptr;
    for (const Op &op : graph.main.ops)
      if (!op.results.empty() && op.results[0] == graph.main.results[i].value)
        producer = &op;
    REQUIRE(producer != nullptr);
    CHECK(producer->kind == OpKind::ShardingConstraint);
    REQUIRE(producer->shardings[0]);
    CHECK(printSharding(*producer->shardings[0]) ==
          (i == 0 ? "<@mesh, [{\"x\"}, {}, {}]>" : "<@mesh, [{\"x\"}]>"));
  }
}

TEST_CASE("GPU solver calls (cusolver_, hipsolver_): the same factorizations, any type") {
  // cusolver_getrf_ffi is LAPACK's getrf on whichever type it is given.
  const std::vector<Complex> iota = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  for (const char *target : {"cusolver_getrf_ffi", "hipsolver_getrf_ffi"}) {
    Graph lu = importVerified(callText(target, "tensor<3x3xf64>",
                                       {"tensor<3x3xf64>", "tensor<3xi32>", "tensor<i32>"}, "{}"));
    std::vector<Literal> out = evaluate(lu, {matrixLiteral("tensor<3x3xf64>", iota)});
    CHECK(out[0].getFloat(0) == 6);
    CHECK(out[1].getInt(0) == 3);
    CHECK(out[2].getInt(0) == 3);
  }
  // cusolver_potrf_ffi says its triangle with `lower`.
  Graph upper = importVerified(callText("cusolver_potrf_ffi", "tensor<2x2xf32>",
                                        {"tensor<2x2xf32>", "tensor<i32>"}, "{lower = false}"));
  std::vector<Literal> out = evaluate(upper, {matrixLiteral("tensor<2x2xf32>", {4, 2, 99, 5})});
  const std::vector<double> factor = {2, 1, 99, 2}; // U = [[2, 1], [0, 2]], a's 99 kept
  for (int64_t i = 0; i < 4; ++i)
    CHECK(out[0].getFloat(i) == factor[i]);
  CHECK(out[1].getInt(0) == 0);
}

TEST_CASE("GPU solver calls with every attribute JAX prints on them") {
  // As jax.jit(jnp.linalg.cholesky).lower(x).as_text() prints it for CUDA:
  // layouts, aliases, the batch count and Shardy's rule are about the
  // kernel's buffers and sharding, not the values.
  Graph graph =
      importVerified(R"(func.func @main(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>) {
  %r:2 = stablehlo.custom_call @cusolver_potrf_ffi(%a) {mhlo.backend_config = {lower = true}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=2, j=2, k=2, l=2}, custom>} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
  return %r#0, %r#1 : tensor<2x2xf32>, tensor<i32>
}
)");
  std::vector<Literal> out = evaluate(graph, {matrixLiteral("tensor<2x2xf32>", {4, 99, 2, 5})});
  const std::vector<double> factor = {2, 99, 1, 2}; // L = [[2, 0], [1, 2]], a's 99 kept
  for (int64_t i = 0; i < 4; ++i)
    CHECK(out[0].getFloat(i) == factor[i]);
  CHECK(out[1].getInt(0) == 0);
}

TEST_CASE("cu_lu_pivots_to_permutation: the pivots' swaps on the identity, batched") {
  Graph graph = importVerified(
      "func.func @main(%p: tensor<2x3xi32>) -> tensor<2x5xi32> {\n  %q = stablehlo.custom_call "
      "@cu_lu_pivots_to_permutation(%p) {mhlo.backend_config = {}, mhlo.frontend_attributes = "
      "{num_batch_dims = \"1\"}} : (tensor<2x3xi32>) -> tensor<2x5xi32>\n  return %q : "
      "tensor<2x5xi32>\n}\n");
  std::string error;
  Literal pivots(*parseType("tensor<2x3xi32>", &error));
  // The second's 7 and -1 are out of range: skipped, as JAX's kernel does.
  const std::vector<int64_t> values = {2, 4, 2, 7, 0, -1};
  for (int64_t i = 0; i < 6; ++i)
    pivots.setInt(i, values[i]);
  std::vector<Literal> out = evaluate(graph, {pivots});
  const std::vector<int64_t> expected = {2, 4, 0, 3, 1, 1, 0, 2, 3, 4};
  for (int64_t i = 0; i < 10; ++i)
    CHECK(out[0].getInt(i) == expected[i]);
}

TEST_CASE("lapack custom calls: errors name the op") {
  auto errorOf = [](const std::string &target, const std::string &aType,
                    const std::vector<std::string> &results, const std::string &config) {
    return importErrorOf(callText(target, aType, results, config));
  };
  auto [place, message] = errorOf("lapack_sgetrf_ffi", "tensor<3x3xf64>",
                                  {"tensor<3x3xf64>", "tensor<3xi32>", "tensor<i32>"}, "{}");
  CHECK(place == "2:3");
  CHECK(message.find("custom_call @lapack_sgetrf_ffi takes f32 matrices, got tensor<3x3xf64>") !=
        std::string::npos);
  std::tie(place, message) = errorOf("lapack_dgetrf_ffi", "tensor<4x3xf64>",
                                     {"tensor<4x3xf64>", "tensor<4xi32>", "tensor<i32>"}, "{}");
  CHECK(message.find("result 1 must be tensor<3xi32>, got tensor<4xi32>") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_dgetrf_ffi", "tensor<4xf64>", {"tensor<4xf64>", "tensor<i32>"}, "{}");
  CHECK(message.find("needs its types") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_dpotrf_ffi", "tensor<4x3xf64>", {"tensor<4x3xf64>", "tensor<i32>"}, "{}");
  CHECK(message.find("takes square matrices, got tensor<4x3xf64>") != std::string::npos);
  std::tie(place, message) = errorOf("lapack_dpotrf_ffi", "tensor<3x3xf64>",
                                     {"tensor<3x3xf64>", "tensor<i32>"}, "{uplo = 7 : ui8}");
  CHECK(message.find("takes uplo = 76 ('L') or 85 ('U')") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_dgetrf_ffi", "tensor<3x3xf64>",
              {"tensor<3x3xf64>", "tensor<3xi32>", "tensor<i32>"}, "{uplo = 76 : ui8}");
  CHECK(message.find("has no backend_config field 'uplo'") != std::string::npos);
  std::tie(place, message) = importErrorOf(
      "func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {\n  %r:2 = "
      "stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.sharding = \"{replicated}\"} : "
      "(tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)\n  return %r#0 : tensor<3x3xf32>\n}\n");
  CHECK(message.find("takes its results' shardings as sdy.sharding") != std::string::npos);
  std::tie(place, message) = errorOf("cusolver_getrf_ffi", "tensor<3x3xi32>",
                                     {"tensor<3x3xi32>", "tensor<3xi32>", "tensor<i32>"}, "{}");
  CHECK(message.find("takes f32, f64, complex<f32> or complex<f64> matrices, got "
                     "tensor<3x3xi32>") != std::string::npos);
  std::tie(place, message) =
      errorOf("cu_lu_pivots_to_permutation", "tensor<4xi32>", {"tensor<3xi32>"}, "{}");
  CHECK(message.find("gives an i32 permutation of the pivots' batch, at least as long as they "
                     "are, got tensor<3xi32> from tensor<4xi32>") != std::string::npos);
  // A size no tensor can have is refused before any text is written from
  // it (a panel count of 2^63 - 1 rows would overflow), at the type's
  // place.
  std::tie(place, message) = errorOf("lapack_sgeqrf_ffi", "tensor<9223372036854775807x2xf32>",
                                     {"tensor<9223372036854775807x2xf32>", "tensor<2xf32>"}, "{}");
  CHECK(place == "2:138");
  CHECK(message.find("lapack_sgeqrf_ffi: tensor type tensor<9223372036854775807x2xf32> has too "
                     "many elements") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_sgeqrf_ffi", "tensor<3x3xf32>", {"tensor<3x3xf32>", "tensor<3xi32>"}, "{}");
  CHECK(message.find("result 1 must be tensor<3xf32>, got tensor<3xi32>") != std::string::npos);
  // Other LAPACK routines stay what they were: a call of the application's.
  std::tie(place, message) =
      errorOf("lapack_sgeev_ffi", "tensor<3x3xf32>", {"tensor<3x3xf32>", "tensor<3xf32>"}, "{}");
  CHECK(message.find("mhlo.backend_config") != std::string::npos);
}

namespace {

/// The Hermitian matrices (row-major, `count` of n x n) the `lower` (or
/// upper) triangle of `a` stands for.
std::vector<Complex> hermitianOf(const std::vector<Complex> &a, int64_t count, int64_t n,
                                 bool lower) {
  std::vector<Complex> h(a.size());
  for (int64_t b = 0; b < count; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at = (b * n + i) * n + j, mirror = (b * n + j) * n + i;
        h[at] = i == j                    ? Complex(a[at].real(), 0)
                : (lower ? i > j : i < j) ? a[at]
                                          : std::conj(a[mirror]);
      }
  return h;
}

/// JAX's check_eigh_results on each of `count` matrices h: V^H V = I,
/// h V = V diag(w), w ascending, info 0; the largest of those errors
/// relative to h's largest magnitude.
double eighError(const std::vector<Literal> &out, const std::vector<Complex> &h, int64_t count,
                 int64_t n) {
  double worst = 0;
  for (int64_t b = 0; b < count; ++b) {
    CHECK(out[2].getInt(b) == 0);
    double largest = 1e-300;
    for (int64_t i = 0; i < n * n; ++i)
      largest = std::max(largest, std::abs(h[b * n * n + i]));
    auto v = [&](int64_t i, int64_t j) { return complexAt(out[0], (b * n + i) * n + j); };
    for (int64_t j = 0; j < n; ++j) {
      const double w = out[1].getFloat(b * n + j);
      if (j > 0)
        CHECK(out[1].getFloat(b * n + j - 1) <= w);
      for (int64_t i = 0; i < n; ++i) {
        Complex gram = 0, hv = 0;
        for (int64_t t = 0; t < n; ++t) {
          gram += std::conj(v(t, i)) * v(t, j);
          hv += h[(b * n + i) * n + t] * v(t, j);
        }
        worst = std::max(
            {worst, std::abs(gram - (i == j ? 1.0 : 0.0)), std::abs(hv - v(i, j) * w) / largest});
      }
    }
  }
  return worst;
}

std::string eighConfig(char mode, char uplo) {
  return "{mode = " + std::to_string(static_cast<int>(mode)) +
         " : ui8, uplo = " + std::to_string(static_cast<int>(uplo)) + " : ui8}";
}

} // namespace

TEST_CASE("lapack syevd/heevd: JAX's example, the eigenvalues LAPACK gives") {
  // cpu_eigh_lapack_syev.py: (iota + iota^H) / 2 of 8 x 8, its lower
  // triangle (the upper 0, as jnp.tril leaves it); LAPACK's eigenvalues.
  const std::vector<double> expected = {-2.4598808e+01, -3.3105560e-05, -3.1002426e-05,
                                        -1.0103593e-05, -1.0022322e-05, 4.0141886e-06,
                                        9.5510331e-06,  2.7659882e+02};
  for (const char *element : {"f32", "complex<f32>"}) {
    CAPTURE(std::string(element));
    const bool complex = std::string(element) != "f32";
    const std::string type = std::string("tensor<8x8x") + element + ">";
    Graph graph =
        importVerified(callText(complex ? "lapack_cheevd_ffi" : "lapack_ssyevd_ffi", type,
                                {type, "tensor<8xf32>", "tensor<i32>"}, eighConfig('V', 'L')));
    std::vector<Complex> a(64);
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j <= i; ++j)
        a[i * 8 + j] = (static_cast<double>(i * 8 + j) + static_cast<double>(j * 8 + i)) / 2;
    std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, a)});
    REQUIRE(out.size() == 3);
    // The zero eigenvalues are LAPACK's rounding noise: within eps |a|.
    for (int64_t i = 0; i < 8; ++i)
      CHECK(std::abs(out[1].getFloat(i) - expected[i]) < 1e-4 * 277);
    CHECK(eighError(out, hermitianOf(a, 1, 8, true), 1, 8) < 1e-5);
  }
}

TEST_CASE("lapack syevd/heevd: batches of every type, either triangle, the other never read") {
  struct Case {
    const char *target, *element, *real;
    int64_t n;
  };
  for (const Case &c :
       {Case{"lapack_ssyevd_ffi", "f32", "f32", 5}, Case{"lapack_dsyevd_ffi", "f64", "f64", 6},
        Case{"lapack_cheevd_ffi", "complex<f32>", "f32", 4},
        Case{"lapack_zheevd_ffi", "complex<f64>", "f64", 7},
        // Several rounds of the tournament, an odd order.
        Case{"lapack_dsyevd_ffi", "f64", "f64", 17},
        Case{"lapack_zheevd_ffi", "complex<f64>", "f64", 12}})
    for (const char uplo : {'L', 'U'}) {
      CAPTURE(std::string(c.target));
      CAPTURE(c.n);
      CAPTURE(uplo);
      const bool complex = std::string(c.element).starts_with("complex");
      const bool single = std::string(c.real) == "f32";
      const std::string dims = std::to_string(c.n) + "x" + std::to_string(c.n);
      const std::string type = "tensor<3x" + dims + "x" + c.element + ">";
      Graph graph = importVerified(
          callText(c.target, type,
                   {type, "tensor<3x" + std::to_string(c.n) + "x" + c.real + ">", "tensor<3xi32>"},
                   eighConfig('V', uplo)));
      // The triangle not named holds 99s, and the complex diagonal an
      // imaginary part: neither is read.
      std::vector<Complex> a = matrices(3 * c.n * c.n, complex, 5);
      for (int64_t b = 0; b < 3; ++b)
        for (int64_t i = 0; i < c.n; ++i)
          for (int64_t j = 0; j < c.n; ++j)
            if (uplo == 'L' ? j > i : j < i)
              a[(b * c.n + i) * c.n + j] = 99;
      std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, a)});
      REQUIRE(out.size() == 3);
      const std::vector<Complex> h = hermitianOf(a, 3, c.n, uplo == 'L');
      CHECK(eighError(out, h, 3, c.n) < (single ? 1e-5 : 1e-13));
      // The eigenvalues' sum is the trace, their squares' sum |h|^2.
      for (int64_t b = 0; b < 3; ++b) {
        double trace = 0, norm2 = 0, sum = 0, squares = 0;
        for (int64_t i = 0; i < c.n; ++i) {
          trace += h[(b * c.n + i) * c.n + i].real();
          sum += out[1].getFloat(b * c.n + i);
          squares += std::pow(out[1].getFloat(b * c.n + i), 2);
          for (int64_t j = 0; j < c.n; ++j)
            norm2 += std::norm(h[(b * c.n + i) * c.n + j]);
        }
        CHECK(std::abs(trace - sum) < (single ? 1e-4 : 1e-12));
        CHECK(std::abs(norm2 - squares) < (single ? 1e-4 : 1e-12) * norm2);
      }
    }
}

TEST_CASE("lapack syevd/heevd: repeated eigenvalues, n = 1, empty, mode N, no convergence") {
  // The identity: no rotation at all, V = I and w = 1 exactly.
  const std::string type = "tensor<4x4xf32>";
  Graph identity = importVerified(callText(
      "lapack_ssyevd_ffi", type, {type, "tensor<4xf32>", "tensor<i32>"}, eighConfig('V', 'L')));
  std::vector<Complex> eye(16);
  for (int64_t i = 0; i < 4; ++i)
    eye[i * 5] = 1;
  std::vector<Literal> out = evaluate(identity, {matrixLiteral(type, eye)});
  for (int64_t i = 0; i < 16; ++i)
    CHECK(out[0].getFloat(i) == eye[i].real());
  for (int64_t i = 0; i < 4; ++i)
    CHECK(out[1].getFloat(i) == 1);
  // A diagonal with ties, and a dense matrix with a triple and a double
  // eigenvalue (Q diag Q^T): sorted, V still orthonormal.
  Graph ties = importVerified(callText("lapack_dsyevd_ffi", "tensor<2x5x5xf64>",
                                       {"tensor<2x5x5xf64>", "tensor<2x5xf64>", "tensor<2xi32>"},
                                       eighConfig('V', 'U')));
  std::vector<Complex> a(50);
  const std::vector<double> diagonal = {3, 1, 3, 1, 2}, spectrum = {-1, 2, 2, 2, -1};
  // Q: the Householder reflection I - 2 u u^T / u^T u, u = (1, 2, 3, 4, 5).
  for (int64_t i = 0; i < 5; ++i) {
    a[i * 6] = diagonal[i];
    for (int64_t j = 0; j < 5; ++j) {
      Complex sum = 0;
      for (int64_t t = 0; t < 5; ++t) {
        auto q = [](int64_t r, int64_t c) {
          return (r == c ? 1.0 : 0.0) - 2.0 * (r + 1) * (c + 1) / 55;
        };
        sum += q(i, t) * spectrum[t] * q(j, t);
      }
      a[25 + i * 5 + j] = sum;
    }
  }
  out = evaluate(ties, {matrixLiteral("tensor<2x5x5xf64>", a)});
  const std::vector<double> sorted = {1, 1, 2, 3, 3, -1, -1, 2, 2, 2};
  for (int64_t i = 0; i < 10; ++i)
    CHECK(std::abs(out[1].getFloat(i) - sorted[i]) < 1e-14);
  CHECK(eighError(out, hermitianOf(a, 2, 5, false), 2, 5) < 1e-14);
  // n = 1: the diagonal's real part (its imaginary part never read), V 1.
  Graph one = importVerified(callText(
      "lapack_zheevd_ffi", "tensor<2x1x1xcomplex<f64>>",
      {"tensor<2x1x1xcomplex<f64>>", "tensor<2x1xf64>", "tensor<2xi32>"}, eighConfig('V', 'L')));
  out =
      evaluate(one, {matrixLiteral("tensor<2x1x1xcomplex<f64>>", {Complex(-3, 7), Complex(2, 0)})});
  CHECK(out[1].getFloat(0) == -3);
  CHECK(out[1].getFloat(1) == 2);
  CHECK(complexAt(out[0], 0) == Complex(1, 0));
  // Empty matrices and an empty batch: nothing to do, info 0.
  Graph empty = importVerified(callText("lapack_ssyevd_ffi", "tensor<2x0x0xf32>",
                                        {"tensor<2x0x0xf32>", "tensor<2x0xf32>", "tensor<2xi32>"},
                                        eighConfig('V', 'L')));
  out = evaluate(empty, {matrixLiteral("tensor<2x0x0xf32>", {})});
  CHECK(out[2].getInt(0) == 0);
  CHECK(out[2].getInt(1) == 0);
  Graph noBatch = importVerified(callText(
      "lapack_cheevd_ffi", "tensor<0x3x3xcomplex<f32>>",
      {"tensor<0x3x3xcomplex<f32>>", "tensor<0x3xf32>", "tensor<0xi32>"}, eighConfig('V', 'L')));
  out = evaluate(noBatch, {matrixLiteral("tensor<0x3x3xcomplex<f32>>", {})});
  CHECK(out[1].numElements() == 0);
  // mode 'N': the eigenvalues only, the operand back as the first result.
  Graph values = importVerified(callText("lapack_dsyevd_ffi", "tensor<5x5xf64>",
                                         {"tensor<5x5xf64>", "tensor<5xf64>", "tensor<i32>"},
                                         eighConfig('N', 'U')));
  const std::vector<Complex> first(a.begin(), a.begin() + 25);
  out = evaluate(values, {matrixLiteral("tensor<5x5xf64>", first)});
  for (int64_t i = 0; i < 25; ++i)
    CHECK(out[0].getFloat(i) == first[i].real());
  for (int64_t i = 0; i < 5; ++i)
    CHECK(out[1].getFloat(i) == sorted[i]);
  CHECK(out[2].getInt(0) == 0);
  // A NaN never converges: info 1 after the last sweep (JAX then gives
  // NaNs), the other matrix of the batch unharmed.
  // (In the lower triangle, which uplo U never reads, it changes nothing.)
  std::vector<Complex> nan = a;
  nan[5] = std::nan("");
  out = evaluate(ties, {matrixLiteral("tensor<2x5x5xf64>", nan)});
  CHECK(out[2].getInt(0) == 0);
  nan[1] = std::nan("");
  out = evaluate(ties, {matrixLiteral("tensor<2x5x5xf64>", nan)});
  CHECK(out[2].getInt(0) == 1);
  CHECK(out[2].getInt(1) == 0);
  for (int64_t i = 5; i < 10; ++i)
    CHECK(std::abs(out[1].getFloat(i) - sorted[i]) < 1e-14);
}

TEST_CASE("GPU solver syevd (cusolver_, hipsolver_): lower and algorithm, any type") {
  for (const char *target : {"cusolver_syevd_ffi", "hipsolver_syevd_ffi"})
    for (const char *config :
         {"{algorithm = 0 : ui8, lower = true}", "{algorithm = 2 : ui8, lower = false}"}) {
      CAPTURE(std::string(target));
      CAPTURE(std::string(config));
      const bool lower = std::string(config).find("true") != std::string::npos;
      const std::string type = "tensor<3x3xcomplex<f64>>";
      Graph graph =
          importVerified(callText(target, type, {type, "tensor<3xf64>", "tensor<i32>"}, config));
      std::vector<Complex> a = matrices(9, true, 6);
      std::vector<Literal> out = evaluate(graph, {matrixLiteral(type, a)});
      CHECK(eighError(out, hermitianOf(a, 1, 3, lower), 1, 3) < 1e-13);
    }
}

TEST_CASE("lapack syevd/heevd: errors name the op") {
  auto errorOf = [](const std::string &target, const std::string &aType,
                    const std::vector<std::string> &results, const std::string &config) {
    return importErrorOf(callText(target, aType, results, config));
  };
  const std::vector<std::string> good = {"tensor<3x3xf32>", "tensor<3xf32>", "tensor<i32>"};
  auto [place, message] =
      errorOf("lapack_ssyevd_ffi", "tensor<3x3xf32>", good, "{mode = 7 : ui8, uplo = 76 : ui8}");
  CHECK(place == "2:3");
  CHECK(message.find("custom_call @lapack_ssyevd_ffi takes mode = 86 ('V') or 78 ('N')") !=
        std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_ssyevd_ffi", "tensor<3x3xf32>", good, "{mode = 86 : ui8, uplo = 7 : ui8}");
  CHECK(place == "2:3");
  CHECK(message.find("takes uplo = 76 ('L') or 85 ('U')") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_ssyevd_ffi", "tensor<3x3xf32>",
              {"tensor<3x3xf32>", "tensor<3xcomplex<f32>>", "tensor<i32>"}, eighConfig('V', 'L'));
  CHECK(place == "2:3");
  CHECK(message.find("result 1 must be tensor<3xf32>, got tensor<3xcomplex<f32>>") !=
        std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_cheevd_ffi", "tensor<3x3xcomplex<f32>>",
              {"tensor<3x3xcomplex<f32>>", "tensor<3xf32>"}, eighConfig('V', 'L'));
  CHECK(message.find("takes (a) -> (vectors, eigenvalues, info) and needs its types") !=
        std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_dsyevd_ffi", "tensor<3x4xf64>",
              {"tensor<3x4xf64>", "tensor<4xf64>", "tensor<i32>"}, eighConfig('V', 'L'));
  CHECK(message.find("takes square matrices, got tensor<3x4xf64>") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_ssyevd_ffi", "tensor<3x3xf64>",
              {"tensor<3x3xf64>", "tensor<3xf64>", "tensor<i32>"}, eighConfig('V', 'L'));
  CHECK(message.find("takes f32 matrices, got tensor<3x3xf64>") != std::string::npos);
  std::tie(place, message) =
      errorOf("cusolver_syevd_ffi", "tensor<3x3xf32>", good, "{algorithm = 3 : ui8}");
  CHECK(message.find("takes algorithm = 0, 1 or 2") != std::string::npos);
  std::tie(place, message) =
      errorOf("cusolver_syevd_ffi", "tensor<3x3xf32>", good, "{mode = 86 : ui8}");
  CHECK(message.find("has no backend_config field 'mode'") != std::string::npos);
  // An odd order is padded by one: a size no tensor can have is refused
  // before (the type's place).
  const std::string huge = "tensor<9223372036854775807x9223372036854775807xf32>";
  std::tie(place, message) =
      errorOf("lapack_ssyevd_ffi", huge, {huge, "tensor<9223372036854775807xf32>", "tensor<i32>"},
              eighConfig('V', 'L'));
  CHECK(place == "2:170");
  CHECK(message.find("has too many elements") != std::string::npos);
  // syevd is LAPACK's name on reals only, heevd on complex numbers only:
  // others stay an application's custom call.
  std::tie(place, message) = errorOf("lapack_cheevd_ffi", "tensor<3x3xf32>", good, "{}");
  CHECK(message.find("takes complex<f32> matrices") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_csyevd_ffi", "tensor<3x3xf32>", good, eighConfig('V', 'L'));
  CHECK(message.find("mhlo.backend_config") != std::string::npos);
}

TEST_CASE("lapack syevd: magnitudes near overflow and underflow, scaled by a power of 2") {
  // [[2, 1], [1, 2]] times 1e37 and 2^-140 (subnormal in f32): eigenvalues
  // 1 and 3 times that, info 0 (an unscaled tau or norm would overflow or
  // lose every digit).
  const std::string type = "tensor<2x2x2xf32>";
  Graph graph = importVerified(callText(
      "lapack_ssyevd_ffi", type, {type, "tensor<2x2xf32>", "tensor<2xi32>"}, eighConfig('V', 'L')));
  const double big = 1e37, tiny = std::ldexp(1.0, -140);
  std::vector<Literal> out = evaluate(
      graph, {matrixLiteral(type, {2 * big, 0, big, 2 * big, 2 * tiny, 0, tiny, 2 * tiny})});
  CHECK(out[2].getInt(0) == 0);
  CHECK(out[2].getInt(1) == 0);
  CHECK(std::abs(out[1].getFloat(0) / big - 1) < 1e-6);
  CHECK(std::abs(out[1].getFloat(1) / big - 3) < 1e-6);
  CHECK(out[1].getFloat(2) == tiny);
  CHECK(out[1].getFloat(3) == 3 * tiny);
  for (int64_t b = 0; b < 2; ++b)
    CHECK(std::abs(std::abs(out[0].getFloat(b * 4)) - std::sqrt(0.5)) < 1e-6);
}
