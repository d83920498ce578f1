// The chlo ops JAX prints, decomposed at import into StableHLO ops: their
// values against libm (f32 and f64), against what JAX computed (the StableHLO
// repository's JAX-generated test data), their special values, and the forms
// and errors of the importer.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/ChloDecomposition.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/verify/Verifier.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;
using namespace shardgen::mlir;

namespace chlo_test {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string tensorOf(size_t n, const std::string &element) {
  return "tensor<" + std::to_string(n) + "x" + element + ">";
}

/// `chlo.<op>` of `values` (as `element`, JAX's pretty form, or the generic
/// one), evaluated by the interpreter, as doubles.
std::vector<double> evalChlo(const std::string &op, const std::string &element,
                             const std::vector<double> &values, bool generic = false,
                             const std::string &resultElement = "") {
  const std::string t = tensorOf(values.size(), element);
  const std::string r = tensorOf(values.size(), resultElement.empty() ? element : resultElement);
  const std::string line = generic ? "%r = \"chlo." + op + "\"(%x) : (" + t + ") -> " + r
                                   : "%r = chlo." + op + " %x : " + t + " -> " + r;
  const std::string text =
      "func.func @main(%x: " + t + ") -> " + r + " {\n  " + line + "\n  return %r : " + r + "\n}\n";
  ImportedGraph imported = importMlir(text);
  verifyGraph(imported.graph);
  std::string error;
  Literal input(*parseType(t, &error));
  for (size_t i = 0; i < values.size(); ++i)
    input.setFloat(static_cast<int64_t>(i), values[i]);
  const Literal out = evaluate(imported.graph, {input}).at(0);
  std::vector<double> result;
  for (int64_t i = 0; i < out.numElements(); ++i)
    result.push_back(isFloat(out.elementType()) ? out.getFloat(i)
                                                : static_cast<double>(out.getInt(i)));
  return result;
}

/// Points across [lo, hi], the ends included.
std::vector<double> sweep(double lo, double hi, int n) {
  std::vector<double> points;
  for (int i = 0; i < n; ++i)
    points.push_back(lo + (hi - lo) * i / (n - 1));
  return points;
}

/// |got - want| <= tolerance * scale(x) * max(|want|, floor), NaN where want
/// is NaN. `scale`: the function's condition number (plus one) where the
/// rounding of its argument alone moves it by more than an ulp.
void checkClose(const std::vector<double> &x, const std::vector<double> &got,
                const std::function<double(double)> &want, double tolerance, double floor = 1,
                const std::function<double(double)> &scale = nullptr) {
  for (size_t i = 0; i < x.size(); ++i) {
    const double factor = scale ? scale(x[i]) : 1;
    CAPTURE(x[i]);
    const double expected = want(x[i]);
    CAPTURE(expected);
    CAPTURE(got[i]);
    if (std::isnan(expected)) {
      CHECK(std::isnan(got[i]));
    } else if (std::isinf(expected)) {
      CHECK(got[i] == expected);
    } else {
      CHECK(std::fabs(got[i] - expected) <=
            tolerance * factor * std::max(std::fabs(expected), floor));
    }
  }
}

/// f32 inputs: the libm value at the f32 input, in double.
std::vector<double> asF32(std::vector<double> x) {
  for (double &v : x)
    v = static_cast<float>(v);
  return x;
}

/// erf_inv's truth: the inverse of libm's erf by Newton's method, through
/// erfc(x) = 1 - y near +-1 (where 1 - y is exact and erf's absolute
/// precision would not pin x down).
double erfInvReference(double y) {
  if (std::fabs(y) > 1)
    return kNaN;
  if (std::fabs(y) == 1)
    return y * kInf;
  if (y < 0)
    return -erfInvReference(-y);
  const bool tail = y > 0.5;
  const double target = tail ? 1 - y : y;
  double x = 0.5;
  for (int i = 0; i < 200; ++i) {
    const double slope = 2 / std::sqrt(std::numbers::pi) * std::exp(-x * x);
    const double step = tail ? (target - std::erfc(x)) / slope : (std::erf(x) - target) / slope;
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

/// erf_inv's condition number plus one: how much the rounding of y moves it.
double erfInvCondition(double y) {
  const double x = erfInvReference(y);
  if (!std::isfinite(x) || x == 0)
    return 1;
  return 1 + std::fabs(y) * std::sqrt(std::numbers::pi) / 2 * std::exp(x * x) / std::fabs(x);
}

/// digamma's truth: the series digamma(x + n) - sum 1/(x + k), with the
/// asymptotic expansion at x + n >= 20; the reflection below 1/2.
double digammaReference(double x) {
  if (x <= 0 && x == std::floor(x))
    return kNaN;
  if (x < 0.5)
    return digammaReference(1 - x) - std::numbers::pi / std::tan(std::numbers::pi * x);
  double sum = 0;
  while (x < 20) {
    sum -= 1 / x;
    x += 1;
  }
  const double inverse2 = 1 / (x * x);
  return sum + std::log(x) - 0.5 / x -
         inverse2 * (1.0 / 12 - inverse2 * (1.0 / 120 - inverse2 * (1.0 / 252 - inverse2 / 240)));
}

/// `chlo.<op> %a, %b` on pairs of values, evaluated.
std::vector<double> evalChlo2(const std::string &op, const std::string &element,
                              const std::vector<std::pair<double, double>> &pairs,
                              bool functionalType = false) {
  const std::string t = tensorOf(pairs.size(), element);
  // As chlo prints binary ops (`: t, t -> t`), or `: (t, t) -> t`.
  const std::string types =
      functionalType ? "(" + t + ", " + t + ") -> " + t : t + ", " + t + " -> " + t;
  const std::string text = "func.func @main(%a: " + t + ", %b: " + t + ") -> " + t +
                           " {\n  %r = chlo." + op + " %a, %b : " + types + "\n  return %r : " + t +
                           "\n}\n";
  ImportedGraph imported = importMlir(text);
  verifyGraph(imported.graph);
  std::string error;
  Literal a(*parseType(t, &error)), b(*parseType(t, &error));
  for (size_t i = 0; i < pairs.size(); ++i) {
    a.setFloat(static_cast<int64_t>(i), pairs[i].first);
    b.setFloat(static_cast<int64_t>(i), pairs[i].second);
  }
  const Literal out = evaluate(imported.graph, {a, b}).at(0);
  std::vector<double> result;
  for (int64_t i = 0; i < out.numElements(); ++i)
    result.push_back(out.getFloat(i));
  return result;
}

} // namespace chlo_test

using namespace chlo_test;

TEST_CASE("chlo.erf_inv: Giles' approximations against the inverse of libm's erf") {
  const std::vector<double> x = sweep(-0.999999, 0.999999, 201);
  checkClose(x, evalChlo("erf_inv", "f64", x), erfInvReference, 1e-14, 1e-300, erfInvCondition);
  const std::vector<double> x32 = asF32(x);
  checkClose(x32, evalChlo("erf_inv", "f32", x32), erfInvReference, 4e-6, 1e-30, erfInvCondition);
  // The ends and beyond; -0 keeps its sign; tiny values are exact.
  const std::vector<double> edges = evalChlo("erf_inv", "f32", {1, -1, 1.5, -2, 0, 1e-30});
  CHECK(edges[0] == kInf);
  CHECK(edges[1] == -kInf);
  CHECK(std::isnan(edges[2]));
  CHECK(std::isnan(edges[3]));
  CHECK(edges[4] == 0);
  CHECK(edges[5] == doctest::Approx(1e-30 * std::sqrt(std::numbers::pi) / 2).epsilon(1e-6));
  const std::vector<double> edges64 = evalChlo("erf_inv", "f64", {1, -1, 1.0000001, 0.9999999999});
  CHECK(edges64[0] == kInf);
  CHECK(edges64[1] == -kInf);
  CHECK(std::isnan(edges64[2]));
  CHECK(edges64[3] == doctest::Approx(erfInvReference(0.9999999999)).epsilon(1e-9));
}

TEST_CASE("chlo.erf_inv, erf, erfc, lgamma, digamma in f32 give what JAX computed") {
  // Inputs and outputs of stablehlo/testdata/*_float32_20_20_chlo.mlir (JAX
  // on XLA's CPU backend).
  struct Case {
    const char *op;
    std::vector<double> x, y;
  };
  const std::vector<Case> cases = {
      {"erf_inv",
       {0.7237051129341125, 0.3062756061553955, -0.09326338768005371, -0.7396950125694275,
        -0.7911257743835449},
       {0.7698132395744324, 0.27846279740333557, -0.08284163475036621, -0.7959693074226379,
        -0.8885979056358337}},
      {"erf",
       {2.9805123805999756, 1.8732634782791138, -0.4556814134120941, 1.016453742980957,
        -5.205500602722168},
       {0.9999749660491943, 0.9919316172599792, -0.4807039201259613, 0.8494190573692322, -1.0}},
      {"erfc",
       {0.6634045243263245, -2.73879337310791, 2.73164963722229, 0.09790269285440445,
        4.164370059967041},
       {0.34814390540122986, 1.9998925924301147, 0.00011194065882591531, 0.8898805975914001,
        3.878145804492306e-09}},
      {"lgamma",
       {-5.150394916534424, -1.387939691543579, 1.4521844387054443, 0.7223731279373169,
        -1.0978267192840576},
       {-3.1141393184661865, 0.9989997148513794, -0.12144231796264648, 0.2342696189880371,
        2.2959649562835693}},
      {"digamma",
       {2.4218177795410156, -0.2734072506427765, 1.5061103105545044, 0.12600600719451904,
        -3.2237014770507812},
       {0.6640795469284058, 2.5106921195983887, 0.04218649864196777, -8.323225975036621,
        5.02655029296875}},
  };
  for (const Case &c : cases) {
    CAPTURE(c.op);
    const std::vector<double> got = evalChlo(c.op, "f32", c.x);
    for (size_t i = 0; i < c.x.size(); ++i) {
      CAPTURE(c.x[i]);
      CHECK(got[i] == doctest::Approx(c.y[i]).epsilon(2e-6));
    }
  }
}

TEST_CASE("chlo.erf and chlo.erfc against libm, f64 and f32, the generic form too") {
  const std::vector<double> x = sweep(-7, 7, 281);
  checkClose(x, evalChlo("erf", "f64", x), [](double v) { return std::erf(v); }, 1e-15, 1e-300);
  // exp(-x^2): the rounding of x^2 moves erfc by x^2 times its own.
  const auto squared = [](double v) { return 1 + v * v; };
  checkClose(
      x, evalChlo("erfc", "f64", x, true), [](double v) { return std::erfc(v); }, 1e-14, 1e-300,
      squared);
  const std::vector<double> x32 = asF32(x);
  checkClose(x32, evalChlo("erf", "f32", x32), [](double v) { return std::erf(v); }, 3e-7, 1e-30);
  // f32 erfc relative to itself down to its underflow near x = 10.
  checkClose(
      x32, evalChlo("erfc", "f32", x32, true), [](double v) { return std::erfc(v); }, 5e-7, 1e-30,
      squared);
  const std::vector<double> special = evalChlo("erf", "f64", {kInf, -kInf, kNaN, -0.0});
  CHECK(special[0] == 1);
  CHECK(special[1] == -1);
  CHECK(std::isnan(special[2]));
  CHECK((special[3] == 0 && std::signbit(special[3])));
  const std::vector<double> tails = evalChlo("erfc", "f64", {30, -30, kInf});
  CHECK(tails == std::vector<double>{0, 2, 0});
}

TEST_CASE("chlo.lgamma against libm: poles, reflection, large arguments") {
  std::vector<double> x = sweep(-9.75, 30.25, 161);
  for (double v : {1e-8, 1e10, 1e300, 0.5, 1.0, 2.0, 3.0})
    x.push_back(v);
  // Absolute near lgamma's zeros (1 and 2), relative elsewhere.
  checkClose(x, evalChlo("lgamma", "f64", x), [](double v) { return std::lgamma(v); }, 2e-14);
  const std::vector<double> x32 = asF32(sweep(-5.75, 20.25, 105));
  checkClose(x32, evalChlo("lgamma", "f32", x32), [](double v) { return std::lgamma(v); }, 3e-6);
  const std::vector<double> poles = evalChlo("lgamma", "f32", {0, -1, -2, kInf, -kInf});
  for (double v : poles)
    CHECK(v == kInf);
}

TEST_CASE("chlo.digamma against its series: reflection, poles give NaN") {
  std::vector<double> x = sweep(-4.7, 25.3, 151);
  checkClose(x, evalChlo("digamma", "f64", x), digammaReference, 1e-12);
  const std::vector<double> x32 = asF32(sweep(-2.7, 15.3, 91));
  checkClose(x32, evalChlo("digamma", "f32", x32), digammaReference, 2e-5);
  const std::vector<double> known = evalChlo("digamma", "f64", {1, 0.5, 0, -3});
  CHECK(known[0] == doctest::Approx(-0.5772156649015329).epsilon(1e-14));
  CHECK(known[1] == doctest::Approx(-1.9635100260214235).epsilon(1e-14));
  CHECK(std::isnan(known[2]));
  CHECK(std::isnan(known[3]));
}

TEST_CASE("chlo hyperbolic and inverse trigonometric functions against libm") {
  struct Case {
    const char *op;
    double (*f)(double);
    double lo, hi;
    bool conditioned = false; // relative error |x| times the argument's
  };
  const std::vector<Case> cases = {
      {"sinh", [](double v) { return std::sinh(v); }, -80, 80, true},
      {"cosh", [](double v) { return std::cosh(v); }, -80, 80, true},
      {"asin", [](double v) { return std::asin(v); }, -1, 1},
      {"acos", [](double v) { return std::acos(v); }, -1, 1},
      {"atan", [](double v) { return std::atan(v); }, -1e3, 1e3},
      {"tan", [](double v) { return std::tan(v); }, -1.5, 1.5},
      {"asinh", [](double v) { return std::asinh(v); }, -1e4, 1e4},
      {"acosh", [](double v) { return std::acosh(v); }, 1, 1e4},
      {"atanh", [](double v) { return std::atanh(v); }, -1, 1},
  };
  for (const Case &c : cases) {
    CAPTURE(c.op);
    std::vector<double> x = sweep(c.lo, c.hi, 121);
    for (double small : {1e-9, -1e-9, 1e-30, 0.0, 1.0000001})
      if (small >= c.lo && small <= c.hi)
        x.push_back(small);
    // e^(x + log 1/2): the sum's rounding is the argument's, times |x|.
    const auto scale = [&](double v) { return c.conditioned ? 1 + std::fabs(v) : 1; };
    checkClose(x, evalChlo(c.op, "f64", x), c.f, 1e-14, 1e-300, scale);
    const std::vector<double> x32 = asF32(x);
    checkClose(x32, evalChlo(c.op, "f32", x32), c.f, 1e-6, 1e-30, scale);
  }
  // Out of their domains and at their limits.
  CHECK(std::isnan(evalChlo("asin", "f32", {1.5})[0]));
  CHECK(std::isnan(evalChlo("acosh", "f64", {0.5})[0]));
  CHECK(evalChlo("atanh", "f64", {1, -1}) == std::vector<double>{kInf, -kInf});
  CHECK(evalChlo("asinh", "f64", {1e300, -1e300})[0] == doctest::Approx(std::asinh(1e300)));
  CHECK(std::signbit(evalChlo("asinh", "f32", {-0.0})[0]));
  CHECK(evalChlo("sinh", "f32", {89})[0] == doctest::Approx(std::sinh(89.0)).epsilon(1e-5));
}

TEST_CASE("chlo.is_inf, is_pos_inf, is_neg_inf, square; f16 and bf16 through f32") {
  const std::vector<double> x = {kInf, -kInf, kNaN, 1, -0.0, 65504};
  CHECK(evalChlo("is_inf", "f16", x, false, "i1") == std::vector<double>{1, 1, 0, 0, 0, 0});
  CHECK(evalChlo("is_pos_inf", "f32", x, true, "i1") == std::vector<double>{1, 0, 0, 0, 0, 0});
  CHECK(evalChlo("is_neg_inf", "bf16", x, false, "i1") == std::vector<double>{0, 1, 0, 0, 0, 0});
  CHECK(evalChlo("square", "f16", {3, -0.5, 300})[0] == 9);
  CHECK(evalChlo("square", "f16", {3, -0.5, 300})[2] == kInf); // 90000 overflows f16
  // bf16 erf_inv is computed in f32 and rounded once.
  const double bf16 = evalChlo("erf_inv", "bf16", {0.5})[0];
  CHECK(bf16 == doctest::Approx(0.4769362762044699).epsilon(4e-3));
}

TEST_CASE("chlo ops: the decomposition is StableHLO ops, named after the result") {
  ImportedGraph imported = importMlir(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
)");
  verifyGraph(imported.graph);
  const Graph &graph = imported.graph;
  REQUIRE(!graph.main.ops.empty());
  CHECK(graph.values[graph.main.ops.back().results[0]].name == "y");
  CHECK(graph.values[graph.main.ops.front().results[0]].name == "y_0");
  for (const Op &op : graph.main.ops)
    CHECK(opName(op.kind) != "custom_call");
}

TEST_CASE("chlo ops: errors name the op's line:col") {
  auto errorOf = [](const std::string &text) -> std::string {
    try {
      ImportedGraph imported = importMlir(text);
      verifyGraph(imported.graph);
    } catch (const GraphError &error) {
      return error.pointer() + ": " + error.what();
    }
    return "no error";
  };
  CHECK(errorOf(R"(func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %y = chlo.erf %x : tensor<4xi32> -> tensor<4xi32>
  return %y : tensor<4xi32>
})") == "2:22: 'chlo.erf' is defined on floating-point tensors, got tensor<4xi32>");
  CHECK(errorOf(R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = chlo.igamma %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
})")
            .find("2:3: operation 'chlo.igamma' is not supported") == 0);
}

TEST_CASE("chlo.next_after: one step toward y on the bits, as libm's nextafter") {
  const std::vector<std::pair<double, double>> pairs = {
      {1, 2},       {1, 0},   {0, 1},      {0, -1},   {-0.0, 0.0}, {1, 1},  {kInf, 0},
      {3e38, kInf}, {-1, -2}, {-1e-45, 1}, {kNaN, 1}, {1, kNaN},   {-2, 5}, {1e-30, -1e-30}};
  for (const char *element : {"f32", "f64"}) {
    CAPTURE(element);
    const bool f32 = std::string(element) == "f32";
    for (bool functionalType : {false, true}) {
      const std::vector<double> got = evalChlo2("next_after", element, pairs, functionalType);
      for (size_t i = 0; i < pairs.size(); ++i) {
        // The operands as the element type holds them.
        const double a = f32 ? static_cast<float>(pairs[i].first) : pairs[i].first;
        const double b = f32 ? static_cast<float>(pairs[i].second) : pairs[i].second;
        const double want =
            f32 ? static_cast<double>(std::nextafter(static_cast<float>(a), static_cast<float>(b)))
                : std::nextafter(a, b);
        CAPTURE(a);
        CAPTURE(b);
        if (std::isnan(want)) {
          CHECK(std::isnan(got[i]));
        } else {
          CHECK(got[i] == want);
          CHECK(std::signbit(got[i]) == std::signbit(want));
        }
      }
    }
  }
}

namespace chlo_test {

/// zeta(s, q) by the direct sum of 20000 terms and the integral of the rest
/// (with its first two Euler-Maclaurin corrections): a reference of another
/// construction than the decomposition's.
double zetaReference(double s, double q) {
  const int n = 20000;
  long double sum = 0;
  for (int k = n - 1; k >= 0; --k)
    sum += std::pow(static_cast<long double>(q) + k, -static_cast<long double>(s));
  const long double a = static_cast<long double>(q) + n;
  sum += std::pow(a, 1 - static_cast<long double>(s)) / (s - 1) +
         std::pow(a, -static_cast<long double>(s)) / 2 +
         s * std::pow(a, -static_cast<long double>(s) - 1) / 12;
  return static_cast<double>(sum);
}

} // namespace chlo_test

TEST_CASE("chlo.zeta and chlo.polygamma: known values, a reference sum, their domains") {
  const double pi2 = std::numbers::pi * std::numbers::pi;
  const std::vector<double> z = evalChlo2("zeta", "f64", {{2, 1}, {3, 1}, {2, 0.5}, {4, 2}});
  CHECK(z[0] == doctest::Approx(pi2 / 6).epsilon(1e-15));
  CHECK(z[1] == doctest::Approx(1.2020569031595942).epsilon(1e-15));
  CHECK(z[2] == doctest::Approx(pi2 / 2).epsilon(1e-15));
  CHECK(z[3] == doctest::Approx(pi2 * pi2 / 90 - 1).epsilon(1e-14));
  const std::vector<std::pair<double, double>> points = {{1.5, 0.3}, {2.5, 7.25}, {6, 0.9},
                                                         {11, 1.75}, {1.1, 3},    {30, 2.5}};
  const std::vector<double> got = evalChlo2("zeta", "f64", points);
  const std::vector<double> got32 = evalChlo2("zeta", "f32", points);
  for (size_t i = 0; i < points.size(); ++i) {
    CAPTURE(points[i].first);
    CAPTURE(points[i].second);
    const double want = zetaReference(points[i].first, points[i].second);
    CHECK(got[i] == doctest::Approx(want).epsilon(1e-12));
    CHECK(got32[i] == doctest::Approx(want).epsilon(2e-5));
  }
  // x < 1 and x = 1; q <= 0 with x not an integer; the poles.
  const std::vector<double> domain =
      evalChlo2("zeta", "f64", {{0.5, 1}, {1, 2}, {2.5, -1.5}, {2, -3}, {3, 0}});
  CHECK(std::isnan(domain[0]));
  CHECK(domain[1] == kInf);
  CHECK(std::isnan(domain[2]));
  CHECK(domain[3] == kInf);
  CHECK(std::isnan(domain[4]));

  // polygamma(1, x) is the trigamma function; polygamma(0, x) digamma.
  const std::vector<double> p = evalChlo2(
      "polygamma", "f64", {{1, 1}, {1, 0.5}, {2, 1}, {0, 1}, {1.5, 2}, {-1, 2}, {3, 2.5}});
  CHECK(p[0] == doctest::Approx(pi2 / 6).epsilon(1e-14));
  CHECK(p[1] == doctest::Approx(pi2 / 2).epsilon(1e-14));
  CHECK(p[2] == doctest::Approx(-2 * 1.2020569031595942).epsilon(1e-14));
  CHECK(p[3] == doctest::Approx(-0.5772156649015329).epsilon(1e-14));
  CHECK(std::isnan(p[4]));
  CHECK(std::isnan(p[5]));
  // polygamma(3, x) = 6 zeta(4, x).
  CHECK(p[6] == doctest::Approx(6 * zetaReference(4, 2.5)).epsilon(1e-12));
  CHECK(evalChlo2("polygamma", "f32", {{1, 1}})[0] == doctest::Approx(pi2 / 6).epsilon(1e-6));
}

TEST_CASE("chlo.bessel_i1e against the power series of I1, and what JAX computed") {
  // exp(-|x|) I1(x), I1(x) = sum (x/2)^(2k+1) / (k! (k+1)!): positive terms.
  const auto reference = [](double x) {
    long double term = x / 2.0L, sum = 0;
    for (int k = 0; k < 400; ++k) {
      sum += term;
      term *= (x / 2.0L) * (x / 2.0L) / ((k + 1.0L) * (k + 2.0L));
    }
    return static_cast<double>(sum * std::exp(-std::fabs(static_cast<long double>(x))));
  };
  const std::vector<double> x = sweep(-30, 30, 241);
  checkClose(x, evalChlo("bessel_i1e", "f64", x), reference, 1e-14, 1e-300);
  const std::vector<double> x32 = asF32(x);
  checkClose(x32, evalChlo("bessel_i1e", "f32", x32), reference, 2e-6, 1e-30);
  CHECK(evalChlo("bessel_i1e", "f64", {0})[0] == 0);
}

TEST_CASE("the inlining budget counts a chlo op as its decomposition's ops") {
  // @f0 calls @f1 twice, ... 14 functions: 8192 copies of the last body,
  // 8192 ops for a negate (within the budget), hundreds of times more for
  // chlo.polygamma (refused at the first call, before anything is inlined).
  auto nested = [](const std::string &leaf) {
    std::string text = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                       "  %0 = call @f0(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
                       "  return %0 : tensor<4xf32>\n}\n";
    for (int i = 0; i < 14; ++i) {
      const std::string next = "@f" + std::to_string(i + 1);
      const std::string body = i + 1 < 14 ? "  %0 = call " + next +
                                                "(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                                "  %1 = call " +
                                                next + "(%0) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                          : "  %1 = " + leaf + "\n";
      text += "func.func private @f" + std::to_string(i) +
              "(%a: tensor<4xf32>) -> tensor<4xf32> {\n" + body +
              "  return %1 : tensor<4xf32>\n}\n";
    }
    return text;
  };
  CHECK(importMlir(nested("stablehlo.negate %a : tensor<4xf32>")).graph.main.ops.size() == 8192);
  CHECK(decompositionSize("chlo.polygamma") > 256);
  try {
    importMlir(nested("chlo.polygamma %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>"));
    FAIL("no error");
  } catch (const GraphError &error) {
    CHECK(error.pointer() == "2:3");
    CHECK(std::string(error.what()).find("inlining this call would take the graph past") == 0);
  }
}

TEST_CASE("chlo.mulhi: the high half of the double-width product, every integer type") {
  for (const char *element : {"i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"}) {
    CAPTURE(element);
    const std::string t = tensorOf(64, element);
    const std::string text = "func.func @main(%a: " + t + ", %b: " + t + ") -> " + t +
                             " {\n  %r = \"chlo.mulhi\"(%a, %b) : (" + t + ", " + t + ") -> " + t +
                             "\n  return %r : " + t + "\n}\n";
    ImportedGraph imported = importMlir(text);
    verifyGraph(imported.graph);
    std::string error;
    Literal a(*parseType(t, &error)), b(*parseType(t, &error));
    uint64_t state = 12345;
    auto next = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<int64_t>(state);
    };
    const std::vector<int64_t> edges = {
        0,  1,   -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
        64, -64, 240};
    for (int64_t i = 0; i < 64; ++i) {
      a.setInt(i, i < 8 ? edges[i] : next());
      b.setInt(i, i < 8 ? edges[7 - i] : next());
    }
    const Literal out = evaluate(imported.graph, {a, b}).at(0);
    const int bits = static_cast<int>(elementByteWidth(a.elementType())) * 8;
    const bool isSigned = element[0] == 'i';
    for (int64_t i = 0; i < 64; ++i) {
      // The operands as the type holds them (getInt: sign- or zero-extended).
      const __int128 x =
          isSigned ? __int128(a.getInt(i))
                   : __int128(uint64_t(a.getInt(i)) & (bits == 64 ? ~0ull : (1ull << bits) - 1));
      const __int128 y =
          isSigned ? __int128(b.getInt(i))
                   : __int128(uint64_t(b.getInt(i)) & (bits == 64 ? ~0ull : (1ull << bits) - 1));
      const __int128 product =
          isSigned
              ? x * y
              : __int128(static_cast<unsigned __int128>(x) * static_cast<unsigned __int128>(y));
      const uint64_t high = static_cast<uint64_t>(static_cast<unsigned __int128>(product) >> bits);
      const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
      CAPTURE(i);
      CHECK((static_cast<uint64_t>(out.getInt(i)) & mask) == (high & mask));
    }
  }
  // The interpreter test's values.
  const std::vector<double> si8 = evalChlo2("mulhi", "i8", {{64, 4}, {-64, 4}, {-64, -4}});
  CHECK(si8 == std::vector<double>{1, -1, 1});
}

TEST_CASE("chlo.sinh, cosh, tan and square on complex numbers, as StableHLO legalizes them") {
  // sinh(1 + 2i) = sinh 1 cos 2 + i cosh 1 sin 2; cosh(1 + 2i) = cosh 1 cos 2
  // + i sinh 1 sin 2; tan(1 + 2i) and (1 + 2i)^2 = -3 + 4i from std::complex.
  const std::complex<double> z(1, 2);
  const std::vector<std::pair<std::string, std::complex<double>>> expected = {
      {"sinh", std::sinh(z)}, {"cosh", std::cosh(z)}, {"tan", std::tan(z)}, {"square", z * z}};
  for (const auto &[name, value] : expected) {
    CAPTURE(name);
    for (const char *part : {"real", "imag"}) {
      const std::vector<double> out = testing::evalFloats(
          R"(func.func @main() -> tensor<f64> {
  %z = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f64>>
  %y = chlo.)" +
          name +
          R"( %z : tensor<complex<f64>> -> tensor<complex<f64>>
  %p = stablehlo.)" +
          part +
          R"( %y : (tensor<complex<f64>>) -> tensor<f64>
  return %p : tensor<f64>
})");
      REQUIRE(out.size() == 1);
      const double want = std::string(part) == "real" ? value.real() : value.imag();
      CHECK(std::abs(out[0] - want) <= 1e-14 * std::abs(value));
    }
  }
  // square's real part is (x - y)(x + y), 0 where |x| = |y|: x x - y y
  // would be inf - inf at 1e200.
  const std::vector<double> huge = testing::evalFloats(R"(func.func @main() -> tensor<f64> {
  %z = stablehlo.constant dense<(1.0e200, -1.0e200)> : tensor<complex<f64>>
  %y = chlo.square %z : tensor<complex<f64>> -> tensor<complex<f64>>
  %p = stablehlo.real %y : (tensor<complex<f64>>) -> tensor<f64>
  return %p : tensor<f64>
})");
  CHECK(huge == std::vector<double>{0});
  // The others stay refused on complex operands, saying where.
  auto imported = [](const std::string &text) {
    try {
      importMlir(text);
    } catch (const GraphError &error) {
      return error.pointer() + ": " + error.what();
    }
    return std::string("no error");
  };
  CHECK(imported(R"(func.func @main(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %y = chlo.erf %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %y : tensor<4xcomplex<f32>>
})") == "2:22: 'chlo.erf' is defined on floating-point tensors, got tensor<4xcomplex<f32>>");
}

TEST_CASE("chlo.asin, acos, atan, asinh, acosh, atanh on complex numbers, near the cuts and "
          "at large and tiny |z|") {
  // On the cuts (x > 1 or x < -1 on the real axis for asin, acos, acosh,
  // atanh; |y| > 1 on the imaginary one for asinh and atan) with +0 taking
  // the upper side, just below them, with a tiny imaginary part (where
  // log(iz + sqrt(1 - z^2)) keeps no digit of it), at 1e30 (whose square
  // overflows f32) and at 1e-30. Values from numpy (C99's casin, ...).
  const std::string points = "(2.0, 0.0), (-2.0, 0.0), (2.0, -1.0e-20), (0.5, 1.0e-30), "
                             "(1.5, 1.0e-30), (0.0, 2.0), (0.0, -2.0), (1.0e-20, 3.0), "
                             "(-1.0e-30, 1.5), (1.0e30, 1.0e30), (-1.0e30, 3.0), (3.0, -1.0e30), "
                             "(1.0e-30, 1.0e-30), (-1.0e-30, 1.0e-30), (0.3, -0.7)";
  const std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> expected = {
      {"asin",
       {{1.5707963267948966, 1.3169578969248166},
        {-1.5707963267948966, 1.3169578969248166},
        {1.5707963267948966, -1.3169578969248166},
        {0.5235987755982989, 1.1547005383792516e-30},
        {1.5707963267948966, 0.9624236501192069},
        {0.0, 1.4436354751788103},
        {0.0, -1.4436354751788103},
        {3.162277660168379e-21, 1.8184464592320668},
        {-5.547001962252292e-31, 1.1947632172871094},
        {0.7853981633974483, 70.11727356066129},
        {-1.5707963267948966, 69.77069997038132},
        {3e-30, -69.77069997038132},
        {1e-30, 1e-30},
        {-1e-30, 1e-30},
        {0.24573200610107973, -0.6703367429877897}}},
      {"acos",
       {{0.0, -1.3169578969248166},
        {3.141592653589793, -1.3169578969248166},
        {5.7735026918962575e-21, 1.3169578969248166},
        {1.0471975511965976, -1.1547005383792516e-30},
        {8.944271909999158e-31, -0.9624236501192069},
        {1.5707963267948966, -1.4436354751788103},
        {1.5707963267948966, 1.4436354751788103},
        {1.5707963267948966, -1.8184464592320668},
        {1.5707963267948966, -1.1947632172871094},
        {0.7853981633974483, -70.11727356066129},
        {3.141592653589793, -69.77069997038132},
        {1.5707963267948966, 69.77069997038132},
        {1.5707963267948966, -1e-30},
        {1.5707963267948966, -1e-30},
        {1.3250643206938169, 0.6703367429877897}}},
      {"atan",
       {{1.1071487177940904, 0.0},
        {-1.1071487177940904, 0.0},
        {1.1071487177940904, -2e-21},
        {0.4636476090008061, 8e-31},
        {0.982793723247329, 3.076923076923077e-31},
        {1.5707963267948966, 0.5493061443340549},
        {1.5707963267948966, -0.5493061443340549},
        {1.5707963267948966, 0.34657359027997264},
        {-1.5707963267948966, 0.8047189562170501},
        {1.5707963267948966, 5e-31},
        {-1.5707963267948966, 2.9999999999999996e-60},
        {1.5707963267948966, -9.999999999999999e-31},
        {1e-30, 1e-30},
        {-1e-30, 1e-30},
        {0.480035181202844, -0.7016804321523099}}},
      {"asinh",
       {{1.4436354751788103, 0.0},
        {-1.4436354751788103, 0.0},
        {1.4436354751788103, -4.472135954999579e-21},
        {0.48121182505960347, 8.944271909999158e-31},
        {1.1947632172871094, 5.547001962252292e-31},
        {1.3169578969248166, 1.5707963267948966},
        {1.3169578969248166, -1.5707963267948966},
        {1.762747174039086, 1.5707963267948966},
        {-0.9624236501192069, 1.5707963267948966},
        {70.11727356066129, 0.7853981633974483},
        {-69.77069997038132, 3e-30},
        {69.77069997038132, -1.5707963267948966},
        {1e-30, 1e-30},
        {-1e-30, 1e-30},
        {0.38559098731817487, -0.7089034409655052}}},
      {"acosh",
       {{1.3169578969248166, 0.0},
        {1.3169578969248166, 3.141592653589793},
        {1.3169578969248166, -5.7735026918962575e-21},
        {1.1547005383792516e-30, 1.0471975511965976},
        {0.9624236501192069, 8.944271909999158e-31},
        {1.4436354751788103, 1.5707963267948966},
        {1.4436354751788103, -1.5707963267948966},
        {1.8184464592320668, 1.5707963267948966},
        {1.1947632172871094, 1.5707963267948966},
        {70.11727356066129, 0.7853981633974483},
        {69.77069997038132, 3.141592653589793},
        {69.77069997038132, -1.5707963267948966},
        {1e-30, 1.5707963267948966},
        {1e-30, 1.5707963267948966},
        {0.6703367429877897, -1.3250643206938169}}},
      {"atanh",
       {{0.5493061443340549, 1.5707963267948966},
        {-0.5493061443340549, 1.5707963267948966},
        {0.5493061443340549, -1.5707963267948966},
        {0.5493061443340549, 1.3333333333333335e-30},
        {0.8047189562170501, 1.5707963267948966},
        {0.0, 1.1071487177940904},
        {0.0, -1.1071487177940904},
        {1e-21, 1.2490457723982544},
        {-3.076923076923077e-31, 0.982793723247329},
        {5e-31, 1.5707963267948966},
        {-9.999999999999999e-31, 1.5707963267948966},
        {2.9999999999999996e-60, -1.5707963267948966},
        {1e-30, 1e-30},
        {-1e-30, 1e-30},
        {0.19988189602962927, -0.6396697661585148}}},
  };
  for (const char *part : {"f32", "f64"}) {
    const bool f64 = std::string(part) == "f64";
    const std::string type = "tensor<15xcomplex<" + std::string(part) + ">>";
    for (const auto &[name, values] : expected) {
      CAPTURE(part);
      CAPTURE(name);
      Graph graph = testing::importVerified(
          "func.func @main() -> " + type + " {\n  %z = stablehlo.constant dense<[" + points +
          "]> : " + type + "\n  %y = chlo." + name + " %z : " + type + " -> " + type +
          "\n  return %y : " + type + "\n}");
      const Literal out = evaluate(graph, {}).at(0);
      for (size_t i = 0; i < values.size(); ++i) {
        CAPTURE(i);
        // A few ulp of each part (f32's inputs are rounded: a few of its
        // ulp more); 0 for f32's parts below its subnormals.
        const double tolerance = f64 ? 1e-15 : 1e-6;
        const double floor = f64 ? 0 : std::numeric_limits<float>::denorm_min();
        CHECK(std::abs(out.getFloat(i) - values[i].first) <=
              tolerance * std::abs(values[i].first) + floor);
        CHECK(std::abs(out.getImag(i) - values[i].second) <=
              tolerance * std::abs(values[i].second) + floor);
      }
    }
  }
  // On the cut, -0 takes the upper side as +0 does (JAX's values; C99's
  // casin(2 - 0i) takes the lower one).
  const Literal onCut =
      evaluate(testing::importVerified(R"(func.func @main() -> tensor<complex<f64>> {
  %z = stablehlo.constant dense<(2.0, -0.0)> : tensor<complex<f64>>
  %y = chlo.asin %z : tensor<complex<f64>> -> tensor<complex<f64>>
  return %y : tensor<complex<f64>>
})"),
               {})
          .at(0);
  CHECK(onCut.getFloat(0) == doctest::Approx(1.5707963267948966).epsilon(1e-15));
  CHECK(onCut.getImag(0) == doctest::Approx(1.3169578969248166).epsilon(1e-15));
}
