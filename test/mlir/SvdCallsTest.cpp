// LAPACK's gesdd / gesvd custom calls (jnp.linalg.svd on CPU) read as
// StableHLO ops (LapackCalls.h): JAX's own example against LAPACK's
// singular values, then batches of every type, shape and mode checked as
// JAX's tests check an SVD (a = U S V^H, U and V unitary, S descending),
// rank-deficient and zero matrices, and the errors.
#include <algorithm>
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

std::string tensorType(const std::vector<int64_t> &shape, const std::string &element) {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + element + ">";
}

/// @main(%a) returning s, u and vt of `target` on `shape` (batch, m, n).
std::string svdText(const std::string &target, const std::vector<int64_t> &shape,
                    const std::string &element, char mode, bool full) {
  const int64_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
  std::vector<int64_t> batch(shape.begin(), shape.end() - 2);
  auto with = [&](std::vector<int64_t> tail) {
    std::vector<int64_t> dims = batch;
    dims.insert(dims.end(), tail.begin(), tail.end());
    return dims;
  };
  const std::string real = element == "complex<f32>"   ? "f32"
                           : element == "complex<f64>" ? "f64"
                                                       : element;
  const std::string A = tensorType(shape, element), S = tensorType(with({k}), real),
                    U = tensorType(with({m, full ? m : k}), element),
                    V = tensorType(with({full ? n : k, n}), element), I = tensorType(batch, "i32");
  return "func.func @main(%a: " + A + ") -> (" + S + ", " + U + ", " + V +
         ") {\n  %r:5 = stablehlo.custom_call @" + target +
         "(%a) {mhlo.backend_config = {mode = " + std::to_string(int(mode)) +
         " : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (" + A + ") -> (" + A +
         ", " + S + ", " + U + ", " + V + ", " + I + ")\n  return %r#1, %r#2, %r#3 : " + S + ", " +
         U + ", " + V + "\n}\n";
}

/// Values of no pattern, complex where asked.
std::vector<Complex> valuesOf(int64_t count, bool complex, int seed) {
  std::vector<Complex> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const double t = static_cast<double>(i);
    values[static_cast<size_t>(i)] =
        Complex(std::sin(0.37 * t * t + seed), complex ? std::cos(0.61 * t * t + 2 * seed) : 0);
  }
  return values;
}

/// The largest of |a - U S V^H| / |a|, |U^H U - I|, |V^H V - I| (in units
/// of `epsilon`) over the batch, and whether every S is descending and
/// non-negative: what JAX's tests check of an SVD.
struct SvdError {
  double reconstruction = 0, uUnitary = 0, vUnitary = 0;
  bool sorted = true;
};

SvdError svdError(const std::vector<Complex> &a, const std::vector<int64_t> &shape,
                  const std::vector<Literal> &out, bool full, double epsilon) {
  const int64_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
  const int64_t uc = full ? m : k, vr = full ? n : k;
  int64_t batches = 1;
  for (size_t d = 0; d + 2 < shape.size(); ++d)
    batches *= shape[d];
  SvdError error;
  for (int64_t b = 0; b < batches; ++b) {
    auto u = [&](int64_t i, int64_t j) { return complexAt(out[1], (b * m + i) * uc + j); };
    auto vt = [&](int64_t i, int64_t j) { return complexAt(out[2], (b * vr + i) * n + j); };
    auto s = [&](int64_t i) { return out[0].getFloat(b * k + i); };
    double norm = 0, residual = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Complex sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += u(i, l) * s(l) * vt(l, j);
        const Complex x = a[static_cast<size_t>((b * m + i) * n + j)];
        norm += std::norm(x);
        residual += std::norm(sum - x);
      }
    error.reconstruction =
        std::max(error.reconstruction, norm > 0 ? std::sqrt(residual / norm) / epsilon : residual);
    for (int64_t i = 0; i < uc; ++i)
      for (int64_t j = 0; j < uc; ++j) {
        Complex dot = 0;
        for (int64_t l = 0; l < m; ++l)
          dot += std::conj(u(l, i)) * u(l, j);
        error.uUnitary = std::max(error.uUnitary, std::abs(dot - double(i == j)) / epsilon);
      }
    for (int64_t i = 0; i < vr; ++i)
      for (int64_t j = 0; j < vr; ++j) {
        Complex dot = 0;
        for (int64_t l = 0; l < n; ++l)
          dot += vt(i, l) * std::conj(vt(j, l));
        error.vUnitary = std::max(error.vUnitary, std::abs(dot - double(i == j)) / epsilon);
      }
    for (int64_t i = 0; i < k; ++i)
      error.sorted = error.sorted && s(i) >= 0 && (i == 0 || s(i) <= s(i - 1));
  }
  return error;
}

void checkSvd(const std::string &letter, const std::string &element,
              const std::vector<int64_t> &shape, char mode, const std::vector<Complex> &a) {
  CAPTURE(element);
  CAPTURE(mode);
  CAPTURE(tensorType(shape, element));
  const bool full = mode == 'A';
  Graph graph =
      importVerified(svdText("lapack_" + letter + "gesdd_ffi", shape, element, mode, full));
  std::vector<Literal> out = evaluate(graph, {matrixLiteral(tensorType(shape, element), a)});
  REQUIRE(out.size() == 3);
  const double epsilon = element.find("f32") != std::string::npos ? 0x1p-23 : 0x1p-52;
  const SvdError error = svdError(a, shape, out, full, epsilon);
  CHECK(error.sorted);
  CHECK(error.reconstruction < 20);
  CHECK(error.uUnitary < 20);
  CHECK(error.vUnitary < 20);
}

} // namespace

TEST_CASE("lapack gesdd: JAX's example, LAPACK's singular values, a = U S V^T") {
  // jax/_src/internal_test_util/export_back_compat_test_data/
  // cpu_svd_lapack_gesdd.py, f32: two 4 x 4 matrices, full_matrices.
  const std::vector<Complex> a = {
      1.5410905, -2.775912, -2.374003,  4.028736,  -0.56933475, 1.6115232,  0.9041465,  -0.8321383,
      -5.382895, 4.734856,  2.1972926,  1.5553856, 0.5109847,   -1.1969309, 3.3766198,  -1.3678027,
      2.2637439, 3.406768,  4.809871,   2.8010902, -1.9981416,  -0.6599986, 0.5138156,  4.5982494,
      -2.335944, -9.151717, -1.0481138, 2.272443,  -8.257684,   1.8223318,  0.38403794, 5.0769973};
  const std::vector<double> expected = {8.551605,  5.3574076, 2.8073733, 0.52260846,
                                        11.457574, 10.041604, 5.671653,  1.4754113};
  Graph graph = importVerified(svdText("lapack_sgesdd_ffi", {2, 4, 4}, "f32", 'A', true));
  std::vector<Literal> out = evaluate(graph, {matrixLiteral("tensor<2x4x4xf32>", a)});
  for (int64_t i = 0; i < 8; ++i)
    CHECK(out[0].getFloat(i) == doctest::Approx(expected[i]).epsilon(4e-7));
  const SvdError error = svdError(a, {2, 4, 4}, out, true, 0x1p-23);
  CHECK(error.reconstruction < 8);
  CHECK(error.uUnitary < 8);
  CHECK(error.vUnitary < 8);
}

TEST_CASE("lapack gesdd / gesvd: every type, tall, wide, odd, batched, modes A and S") {
  const std::vector<std::pair<std::string, std::string>> types = {
      {"s", "f32"}, {"d", "f64"}, {"c", "complex<f32>"}, {"z", "complex<f64>"}};
  const std::vector<std::vector<int64_t>> shapes = {{5, 3}, {3, 5}, {2, 6, 4}, {1, 1},
                                                    {1, 4}, {4, 1}, {9, 7},    {16, 16}};
  int seed = 0;
  for (const auto &[letter, element] : types)
    for (const std::vector<int64_t> &shape : shapes)
      for (char mode : {'A', 'S'}) {
        int64_t count = 1;
        for (int64_t dim : shape)
          count *= dim;
        checkSvd(letter, element, shape, mode,
                 valuesOf(count, element.find("complex") == 0, ++seed));
      }
  // gesvd (jnp.linalg.svd(algorithm=QR)) is the same call with another name.
  Graph graph = importVerified(svdText("lapack_dgesvd_ffi", {3, 2}, "f64", 'S', false));
  std::vector<Literal> out =
      evaluate(graph, {matrixLiteral("tensor<3x2xf64>", {3, 0, 0, -2, 0, 0})});
  CHECK(out[0].getFloat(0) == doctest::Approx(3).epsilon(1e-15));
  CHECK(out[0].getFloat(1) == doctest::Approx(2).epsilon(1e-15));
}

TEST_CASE("lapack gesdd: rank-deficient and zero matrices still give unitary U and V") {
  // Two equal columns, a rank-2 product, zeros: the left singular vectors
  // of the zero singular values complete the others to a unitary U.
  std::vector<Complex> twin = valuesOf(20, false, 3);
  for (int64_t i = 0; i < 5; ++i)
    twin[static_cast<size_t>(i * 4 + 1)] = twin[static_cast<size_t>(i * 4)];
  checkSvd("s", "f32", {5, 4}, 'A', twin);
  checkSvd("s", "f32", {5, 4}, 'S', twin);
  const std::vector<Complex> left = valuesOf(12, true, 5), right = valuesOf(10, true, 6);
  std::vector<Complex> product(30);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 5; ++j)
      for (int64_t l = 0; l < 2; ++l)
        product[static_cast<size_t>(i * 5 + j)] +=
            left[static_cast<size_t>(i * 2 + l)] * right[static_cast<size_t>(l * 5 + j)];
  checkSvd("z", "complex<f64>", {6, 5}, 'A', product);
  checkSvd("d", "f64", {3, 4}, 'A', std::vector<Complex>(12));
  Graph graph = importVerified(svdText("lapack_dgesdd_ffi", {3, 4}, "f64", 'A', true));
  std::vector<Literal> out =
      evaluate(graph, {matrixLiteral("tensor<3x4xf64>", std::vector<Complex>(12))});
  for (int64_t i = 0; i < 3; ++i)
    CHECK(out[0].getFloat(i) == 0);
}

TEST_CASE("lapack gesdd: far from 1 in magnitude, no sum of squares overflows") {
  std::vector<Complex> huge = valuesOf(12, false, 7), tiny = huge;
  for (Complex &x : huge)
    x *= 1e30;
  for (Complex &x : tiny)
    x *= 1e-30;
  for (const std::vector<Complex> *a : {&huge, &tiny}) {
    Graph graph = importVerified(svdText("lapack_sgesdd_ffi", {4, 3}, "f32", 'S', false));
    std::vector<Literal> out = evaluate(graph, {matrixLiteral("tensor<4x3xf32>", *a)});
    const SvdError error = svdError(*a, {4, 3}, out, false, 0x1p-23);
    CHECK(error.sorted);
    CHECK(error.reconstruction < 20);
    CHECK(error.uUnitary < 20);
  }
}

TEST_CASE("lapack gesdd: mode N gives the singular values, placeholders for U and V") {
  const std::vector<Complex> a = {3, 0, 0, 0, -5, 0, 0, 0, 4};
  Graph graph = importVerified(svdText("lapack_sgesdd_ffi", {3, 3}, "f32", 'N', true));
  std::vector<Literal> out = evaluate(graph, {matrixLiteral("tensor<3x3xf32>", a)});
  CHECK(out[0].getFloat(0) == 5);
  CHECK(out[0].getFloat(1) == 4);
  CHECK(out[0].getFloat(2) == 3);
  for (int64_t i = 0; i < 9; ++i)
    CHECK(out[1].getFloat(i) == 0);
  // An empty matrix: no singular values, U and V^T the identity (JAX's own
  // lowering gives those without calling LAPACK).
  Graph empty = importVerified(svdText("lapack_sgesdd_ffi", {2, 0}, "f32", 'A', true));
  out = evaluate(empty, {matrixLiteral("tensor<2x0xf32>", {})});
  CHECK(out[1].getFloat(0) == 1);
  CHECK(out[1].getFloat(1) == 0);
  CHECK(out[1].getFloat(3) == 1);
}

TEST_CASE("lapack gesdd: errors name the op") {
  auto [place, message] = importErrorOf(svdText("lapack_sgesdd_ffi", {3, 2}, "f32", 'X', true));
  CHECK(place == "2:3");
  CHECK(message.find("custom_call @lapack_sgesdd_ffi takes mode = 65 ('A'), 83 ('S') or 78 "
                     "('N')") != std::string::npos);
  // Mode S with the full U: the stated types must be the mode's.
  std::string text = svdText("lapack_sgesdd_ffi", {3, 2}, "f32", 'S', true);
  std::tie(place, message) = importErrorOf(text);
  CHECK(place == "2:3");
  CHECK(message.find("result 2 must be tensor<3x2xf32>, got tensor<3x3xf32>") != std::string::npos);
  std::tie(place, message) = importErrorOf(svdText("lapack_dgesdd_ffi", {3, 2}, "f32", 'A', true));
  CHECK(message.find("takes f64 matrices, got tensor<3x2xf32>") != std::string::npos);
  // The GPU solvers' SVDs take other attributes (full_matrices, ...):
  // not read as LAPACK's, and refused as an application's custom call.
  std::tie(place, message) = importErrorOf(svdText("cusolver_gesvd_ffi", {3, 2}, "f32", 'A', true));
  CHECK(place == "2:79"); // the attribute
  CHECK(message.find("'mhlo.backend_config' of 'stablehlo.custom_call' is not supported") !=
        std::string::npos);
}
