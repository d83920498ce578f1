// LAPACK's getrf and potrf custom calls as JAX prints them on CPU, read as
// StableHLO ops (LapackCalls.h): JAX's own LU example, then batches of
// every shape and element type checked against a partial-pivoting
// reference (the same pivots, P a = L U) and by multiplying the Cholesky
// factors back, info on singular and indefinite matrices, and the errors.
#include <cmath>
#include <complex>

#include <doctest/doctest.h>

#include "compiler/interp/Interpreter.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;

namespace {

using Complex = std::complex<double>;
using testing::importErrorOf;
using testing::importVerified;

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

Literal literalOf(const std::string &type, const std::vector<Complex> &values) {
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

Complex at(const Literal &literal, int64_t index) {
  return isComplex(literal.type().elementType)
             ? Complex(literal.getFloat(index), literal.getImag(index))
             : Complex(literal.getFloat(index), 0);
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
    std::vector<Literal> out = evaluate(graph, {literalOf(type, iota)});
    REQUIRE(out.size() == 3);
    const std::vector<double> lu = {6, 7, 8, 0, 1, 2, 0.5, 0.5, 0};
    for (int64_t i = 0; i < 9; ++i)
      CHECK(at(out[0], i) == Complex(lu[i], 0));
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
    std::vector<Literal> out = evaluate(graph, {literalOf(type, a)});
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
      auto factor = [&](int64_t i, int64_t j) { return at(out[0], (b * c.m + i) * c.n + j); };
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
        std::vector<Literal> out = evaluate(graph, {literalOf(type, a)});
        REQUIRE(out.size() == 2);
        CHECK(out[1].getInt(0) == 0);
        CHECK(out[1].getInt(1) == 3);
        auto factor = [&](int64_t i, int64_t j) { return at(out[0], i * n + j); };
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
    std::vector<Literal> out = evaluate(graph, {literalOf(type, a)});
    REQUIRE(out.size() == 3);
    const double tolerance = single ? 1e-5 : 1e-12;
    for (int64_t b = 0; b < 2; ++b) {
      CAPTURE(b);
      const std::vector<Complex> one(a.begin() + b * c.m * c.n, a.begin() + (b + 1) * c.m * c.n);
      auto [factored, tauValues] = referenceQr(one, c.m, c.n);
      double worst = 0;
      for (int64_t i = 0; i < c.m * c.n; ++i)
        worst = std::max(worst, std::abs(at(out[0], b * c.m * c.n + i) - factored[i]));
      for (int64_t i = 0; i < c.n; ++i)
        worst = std::max(worst, std::abs(at(out[1], b * c.n + i) - tauValues[i]));
      CHECK(worst < tolerance * 10);
      if (b == 1)
        CHECK(at(out[1], c.n) == Complex(0, 0));
      // Q (m x n) R (n x n, out[0]'s upper triangle) = a; Q^H Q = I.
      auto q = [&](int64_t i, int64_t j) { return at(out[2], (b * c.m + i) * c.n + j); };
      auto r = [&](int64_t i, int64_t j) {
        return j >= i ? at(out[0], (b * c.m + i) * c.n + j) : Complex(0, 0);
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
  std::vector<Literal> out = evaluate(lu, {literalOf("tensor<2x0x5xf32>", {})});
  REQUIRE(out.size() == 3);
  CHECK(out[2].getInt(0) == 0);
  CHECK(out[2].getInt(1) == 0);
  Graph cholesky = importVerified(
      callText("lapack_dpotrf_ffi", "tensor<0x0xf64>", {"tensor<0x0xf64>", "tensor<i32>"}, "{}"));
  out = evaluate(cholesky, {literalOf("tensor<0x0xf64>", {})});
  CHECK(out[1].getInt(0) == 0);
  // orgqr of no reflectors: the identity's first columns.
  Graph product = importVerified(
      "func.func @main(%a: tensor<3x2xf32>, %t: tensor<0xf32>) -> tensor<3x2xf32> {\n"
      "  %q = stablehlo.custom_call @lapack_sorgqr_ffi(%a, %t) {mhlo.backend_config = {}} : "
      "(tensor<3x2xf32>, tensor<0xf32>) -> tensor<3x2xf32>\n  return %q : tensor<3x2xf32>\n}\n");
  out = evaluate(
      product, {literalOf("tensor<3x2xf32>", {7, 7, 7, 7, 7, 7}), literalOf("tensor<0xf32>", {})});
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
    std::vector<Literal> out = evaluate(lu, {literalOf("tensor<3x3xf64>", iota)});
    CHECK(out[0].getFloat(0) == 6);
    CHECK(out[1].getInt(0) == 3);
    CHECK(out[2].getInt(0) == 3);
  }
  // cusolver_potrf_ffi says its triangle with `lower`.
  Graph upper = importVerified(callText("cusolver_potrf_ffi", "tensor<2x2xf32>",
                                        {"tensor<2x2xf32>", "tensor<i32>"}, "{lower = false}"));
  std::vector<Literal> out = evaluate(upper, {literalOf("tensor<2x2xf32>", {4, 2, 99, 5})});
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
  std::vector<Literal> out = evaluate(graph, {literalOf("tensor<2x2xf32>", {4, 99, 2, 5})});
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
  // A limit the expansion meets is the op's, at its place.
  std::tie(place, message) = errorOf("lapack_sgeqrf_ffi", "tensor<9223372036854775807x2xf32>",
                                     {"tensor<9223372036854775807x2xf32>", "tensor<2xf32>"}, "{}");
  CHECK(place == "2:3");
  CHECK(message.find("is too large") != std::string::npos);
  std::tie(place, message) =
      errorOf("lapack_sgeqrf_ffi", "tensor<3x3xf32>", {"tensor<3x3xf32>", "tensor<3xi32>"}, "{}");
  CHECK(message.find("result 1 must be tensor<3xf32>, got tensor<3xi32>") != std::string::npos);
  // Other LAPACK routines stay what they were: a call of the application's.
  std::tie(place, message) =
      errorOf("lapack_ssyevd_ffi", "tensor<3x3xf32>", {"tensor<3x3xf32>", "tensor<3xf32>"}, "{}");
  CHECK(message.find("mhlo.backend_config") != std::string::npos);
}
