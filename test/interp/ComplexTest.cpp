// complex<f32> and complex<f64>: the ops StableHLO defines on them, with the
// values of the spec's examples and of stablehlo/tests/interpret/*.mlir.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <utility>

#include "test/interp/InterpTestUtil.h"
#include "test/support/ComplexMaxBody.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

using Pair = std::pair<double, double>;

Literal complexLiteral(const std::string &type, const std::vector<Pair> &values) {
  Literal out(tensorType(type));
  REQUIRE(static_cast<int64_t>(values.size()) == out.numElements());
  for (size_t i = 0; i < values.size(); ++i)
    out.setComplex(static_cast<int64_t>(i), values[i].first, values[i].second);
  return out;
}

std::vector<Pair> pairs(const Literal &literal) {
  std::vector<Pair> out;
  for (int64_t i = 0; i < literal.numElements(); ++i)
    out.emplace_back(literal.getFloat(i), literal.getImag(i));
  return out;
}

/// Within `tolerance` of `expected` in both parts, element by element.
void checkClose(const Literal &actual, const std::vector<Pair> &expected,
                double tolerance = 1e-12) {
  REQUIRE(actual.numElements() == static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(actual.getFloat(static_cast<int64_t>(i)) ==
          doctest::Approx(expected[i].first).epsilon(tolerance));
    CHECK(actual.getImag(static_cast<int64_t>(i)) ==
          doctest::Approx(expected[i].second).epsilon(tolerance));
  }
}

Literal complexUnary(const std::string &op, const Literal &x, const std::string &resultType = "") {
  return evalOne(opGraph(op, {printType(x.type())}, "", resultType), {x});
}

Literal complexBinary(const std::string &op, const Literal &x, const Literal &y) {
  return evalOne(opGraph(op, {printType(x.type()), printType(y.type())}), {x, y});
}

Literal complexCompare(const char *direction, const Literal &x, const Literal &y) {
  return evalOne(opGraph("compare", {printType(x.type()), printType(y.type())},
                         std::string(R"(, "comparison_direction": ")") + direction + "\""),
                 {x, y});
}

} // namespace

TEST_CASE("complex arithmetic: add, subtract, multiply, divide, negate (interpret tests)") {
  for (const char *type : {"tensor<2xcomplex<f32>>", "tensor<2xcomplex<f64>>"}) {
    CAPTURE(type);
    const Literal x = complexLiteral(type, {{1.5, 2.5}, {7.5, 5.5}});
    const Literal y = complexLiteral(type, {{2.5, 1.5}, {5.5, 7.5}});
    CHECK(pairs(complexBinary("add", x, y)) == std::vector<Pair>{{4, 4}, {13, 13}});
    CHECK(pairs(complexBinary("subtract", x, y)) == std::vector<Pair>{{-1, 1}, {2, -2}});
    CHECK(pairs(complexBinary("multiply", x, y)) == std::vector<Pair>{{0, 8.5}, {0, 86.5}});
    CHECK(pairs(complexUnary("negate", x)) == std::vector<Pair>{{-1.5, -2.5}, {-7.5, -5.5}});
  }
  const Literal a = complexLiteral("tensor<2xcomplex<f64>>", {{1.5, 2.5}, {7.5, 5.5}});
  const Literal b = complexLiteral("tensor<2xcomplex<f64>>", {{2.5, 1.5}, {5.5, 7.5}});
  checkClose(complexBinary("divide", a, b), {{0.88235294117647056, 0.47058823529411764},
                                             {0.95375722543352603, -0.30057803468208094}});
  // x / 0 divides both parts by the zero.
  const Literal q = complexBinary("divide", complexLiteral("tensor<1xcomplex<f64>>", {{1, -1}}),
                                  complexLiteral("tensor<1xcomplex<f64>>", {{0, 0}}));
  CHECK(q.getFloat(0) == kInf);
  CHECK(q.getImag(0) == -kInf);
}

TEST_CASE("complex functions match the interpret tests' values") {
  const Literal x = complexLiteral("tensor<2xcomplex<f64>>", {{1.5, 2.5}, {3.5, 4.5}});
  checkClose(complexUnary("sine", x), {{6.1169280123693124, 0.42797453450615125},
                                       {-15.790198357309713, -42.143370741504995}});
  checkClose(complexUnary("cosine", x), {{0.43378099760770306, -6.0350486377665726},
                                         {-42.153773835602316, 15.786301507647636}});
  checkClose(complexUnary("tanh", x), {{0.96778680215277412, -0.092637836268419898},
                                       {1.0016627850956348, 7.5285721538218659E-4}});
  const Literal f32 = complexLiteral("tensor<2xcomplex<f32>>", {{1.5, 2.5}, {3.5, 4.5}});
  checkClose(complexUnary("tanh", f32), {{0.967786788, -0.0926378369}, {1.00166273, 7.52857188E-4}},
             1e-6);
  const Literal z = complexLiteral("tensor<1xcomplex<f64>>", {{1, 2}});
  checkClose(complexUnary("exponential", z), {{-1.1312043837568135, 2.4717266720048188}});
  checkClose(complexUnary("log", z), {{0.80471895621705025, 1.1071487177940904}});
  checkClose(complexUnary("logistic", z), {{1.02141536417218054, 0.40343870608154248}});
  checkClose(complexUnary("cbrt", complexLiteral("tensor<1xcomplex<f64>>", {{3, 4}})),
             {{1.6289371459221759, 0.5201745023045458}});
  const Literal w = complexLiteral("tensor<3xcomplex<f64>>", {{1, 2}, {2, 1}, {0, 0}});
  checkClose(complexUnary("exponential_minus_one", w), {{-2.13120438375681363, 2.47172667200481892},
                                                        {2.99232404844127142, 6.21767631236796820},
                                                        {0, 0}});
  // The spec's formula: (log(hypot(x + 1, y)), atan2(y, x + 1)).
  checkClose(complexUnary("log_plus_one", w),
             {{1.03972077083991, 0.78539816339744}, {1.15129254649702, 0.32175055439664}, {0, 0}},
             1e-10);
  const Literal r = complexLiteral("tensor<2xcomplex<f64>>", {{-1, 0}, {3, 4}});
  CHECK(pairs(complexUnary("sqrt", r)) == std::vector<Pair>{{0, 1}, {2, 1}});
  CHECK(pairs(complexUnary("rsqrt", r)) == std::vector<Pair>{{0, -1}, {0.4, -0.2}});
  checkClose(
      complexBinary("power", complexLiteral("tensor<2xcomplex<f64>>", {{1.5, 2.5}, {7.5, 5.5}}),
                    complexLiteral("tensor<2xcomplex<f64>>", {{2.5, 1.5}, {5.5, 7.5}})),
      {{-1.5679313814305016, -2.6674775446623613}, {392.89270835580857, 1801.8249193362644}});
  // tan z = -i tanh(iz), against std::complex.
  const std::complex<double> t = std::tan(std::complex<double>(0.5, -0.25));
  checkClose(complexUnary("tan", complexLiteral("tensor<1xcomplex<f64>>", {{0.5, -0.25}})),
             {{t.real(), t.imag()}});
}

TEST_CASE("complex abs is the modulus, of the part type; sign is z / |z|, NaN in both parts") {
  const Literal a = complexUnary(
      "abs", complexLiteral("tensor<2xcomplex<f32>>", {{3, 4}, {-5, 12}}), "tensor<2xf32>");
  CHECK(a.type() == tensorType("tensor<2xf32>"));
  CHECK(floats(a) == std::vector<double>{5, 13});
  const Literal s = complexUnary(
      "sign", complexLiteral("tensor<4xcomplex<f64>>", {{kNaN, 0}, {0, kNaN}, {0, 0}, {0, 1}}));
  for (int64_t i : {0, 1})
    CHECK((std::isnan(s.getFloat(i)) && std::isnan(s.getImag(i))));
  CHECK(pairs(s)[2] == Pair{0, 0});
  CHECK(pairs(s)[3] == Pair{0, 1});
  checkClose(complexUnary("sign", complexLiteral("tensor<1xcomplex<f64>>", {{3, -4}})),
             {{0.6, -0.8}});
}

TEST_CASE("complex compare: EQ and NE on both parts, orderings lexicographic") {
  // compare_op_test_c128: NaN parts are unequal, -0 equals +0.
  const Literal x =
      complexLiteral("tensor<4xcomplex<f64>>", {{kNaN, 0}, {0, kNaN}, {-0.0, 0}, {2, 2}});
  const Literal y =
      complexLiteral("tensor<4xcomplex<f64>>", {{kNaN, -0.0}, {-0.0, kNaN}, {0, 0}, {2, 1}});
  CHECK(ints(complexCompare("EQ", x, y)) == std::vector<int64_t>{0, 0, 1, 0});
  CHECK(ints(complexCompare("NE", x, y)) == std::vector<int64_t>{1, 1, 0, 1});
  const Literal a = complexLiteral("tensor<3xcomplex<f32>>", {{1, 5}, {2, 1}, {2, 1}});
  const Literal b = complexLiteral("tensor<3xcomplex<f32>>", {{2, 0}, {2, 3}, {2, 1}});
  CHECK(ints(complexCompare("LT", a, b)) == std::vector<int64_t>{1, 1, 0});
  CHECK(ints(complexCompare("LE", a, b)) == std::vector<int64_t>{1, 1, 1});
  CHECK(ints(complexCompare("GT", a, b)) == std::vector<int64_t>{0, 0, 0});
  CHECK(ints(complexCompare("GE", b, a)) == std::vector<int64_t>{1, 1, 1});
  // max_op_test_c64: lexicographic on (real, imaginary).
  const Literal p =
      complexLiteral("tensor<4xcomplex<f32>>", {{1.5, 2.5}, {1.5, 7.5}, {0, 1.5}, {0, 1.5}});
  const Literal q =
      complexLiteral("tensor<4xcomplex<f32>>", {{7.5, 1.5}, {1.5, 2.5}, {-0.0, 2.5}, {0, 1.5}});
  const std::vector<Pair> max = pairs(complexBinary("maximum", p, q));
  CHECK(max == std::vector<Pair>{{7.5, 1.5}, {1.5, 7.5}, {-0.0, 2.5}, {0, 1.5}});
  CHECK(std::signbit(max[2].first));
  CHECK(pairs(complexBinary("minimum", p, q)) ==
        std::vector<Pair>{{1.5, 2.5}, {1.5, 2.5}, {0, 1.5}, {0, 1.5}});
}

TEST_CASE("real, imag and complex; convert to and from complex types") {
  const Literal z = complexLiteral("tensor<2xcomplex<f64>>", {{1, 2}, {3, 4}});
  const Literal re = complexUnary("real", z);
  const Literal im = complexUnary("imag", z);
  CHECK(re.type() == tensorType("tensor<2xf64>"));
  CHECK(floats(re) == std::vector<double>{1, 3});
  CHECK(floats(im) == std::vector<double>{2, 4});
  // Of a float operand: itself and zeros.
  const Literal f = literal("tensor<2xf32>", {1, 2});
  CHECK(floats(complexUnary("real", f)) == std::vector<double>{1, 2});
  CHECK(floats(complexUnary("imag", f)) == std::vector<double>{0, 0});
  const Literal c = evalOne(opGraph("complex", {"tensor<2xf64>", "tensor<2xf64>"}),
                            {literal("tensor<2xf64>", {1, 3}), literal("tensor<2xf64>", {2, 4})});
  CHECK(c.type() == tensorType("tensor<2xcomplex<f64>>"));
  CHECK(pairs(c) == std::vector<Pair>{{1, 2}, {3, 4}});

  // convert_op_test_*: the real part to real types, an imaginary part of 0 from them.
  const Literal v = complexLiteral("tensor<3xcomplex<f64>>", {{-1, 0}, {0, 1}, {1, 0}});
  CHECK(ints(complexUnary("convert", v, "tensor<3xi1>")) == std::vector<int64_t>{1, 0, 1});
  CHECK(ints(complexUnary("convert", v, "tensor<3xi64>")) == std::vector<int64_t>{-1, 0, 1});
  CHECK(floats(complexUnary("convert", v, "tensor<3xf64>")) == std::vector<double>{-1, 0, 1});
  CHECK(pairs(complexUnary("convert", v, "tensor<3xcomplex<f32>>")) == pairs(v));
  CHECK(pairs(complexUnary("convert", intLiteral("tensor<2xi1>", {1, 0}),
                           "tensor<2xcomplex<f64>>")) == std::vector<Pair>{{1, 0}, {0, 0}});
  CHECK(pairs(complexUnary("convert", literal("tensor<2xbf16>", {-1.5, 2}),
                           "tensor<2xcomplex<f32>>")) == std::vector<Pair>{{-1.5, 0}, {2, 0}});
  CHECK(
      ints(complexUnary("convert", complexLiteral("tensor<2xcomplex<f32>>", {{1e10, 1}, {kNaN, 1}}),
                        "tensor<2xi32>")) == std::vector<int64_t>{2147483647, 0});
}

TEST_CASE("complex dot_general and reduce sum complex products; select and moves keep pairs") {
  const Literal a = complexLiteral("tensor<2x2xcomplex<f32>>", {{1, 1}, {0, 2}, {3, 0}, {1, -1}});
  const Literal b = complexLiteral("tensor<2x1xcomplex<f32>>", {{2, 0}, {0, 1}});
  const Literal d =
      evalOne(opGraph("dot_general", {"tensor<2x2xcomplex<f32>>", "tensor<2x1xcomplex<f32>>"},
                      R"(, "lhs_contracting_dimensions": [1],
                                         "rhs_contracting_dimensions": [0])"),
              {a, b});
  // [1+i, 2i] . [2, i] = 2+2i - 2; [3, 1-i] . [2, i] = 6 + i + 1.
  CHECK(pairs(d) == std::vector<Pair>{{0, 2}, {7, 1}});
  const std::string reduce = R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "x", "type": "tensor<2x2xcomplex<f64>>"}],
    "ops": [{"op": "constant", "value": [0.5, -1], "type": "tensor<complex<f64>>", "result": "z"},
            {"op": "reduce", "operands": ["x", "z"], "dimensions": [1], "reducer": "REDUCER",
             "type": "tensor<2xcomplex<f64>>", "result": "y"}],
    "outputs": [{"value": "y"}]})";
  auto reduced = [&](const std::string &reducer) {
    std::string json = reduce;
    json.replace(json.find("REDUCER"), 7, reducer);
    return pairs(evalOne(
        json, {complexLiteral("tensor<2x2xcomplex<f64>>", {{1, 1}, {0, 2}, {3, 0}, {1, -1}})}));
  };
  CHECK(reduced("add") == std::vector<Pair>{{1.5, 2}, {4.5, -2}});
  // (0.5 - i)(1 + i)(2i) = (1.5 - 0.5i)(2i) = 1 + 3i; (0.5 - i)(3)(1 - i) = -1.5 - 4.5i.
  CHECK(reduced("mul") == std::vector<Pair>{{1, 3}, {-1.5, -4.5}});
  CHECK(reduced("max") == std::vector<Pair>{{1, 1}, {3, 0}});
  const Literal s = evalOne(
      opGraph("select", {"tensor<2xi1>", "tensor<2xcomplex<f64>>", "tensor<2xcomplex<f64>>"}),
      {intLiteral("tensor<2xi1>", {1, 0}),
       complexLiteral("tensor<2xcomplex<f64>>", {{1, 2}, {3, 4}}),
       complexLiteral("tensor<2xcomplex<f64>>", {{5, 6}, {7, 8}})});
  CHECK(pairs(s) == std::vector<Pair>{{1, 2}, {7, 8}});
  const Literal t =
      evalOne(opGraph("transpose", {"tensor<2x2xcomplex<f64>>"}, R"(, "permutation": [1, 0])"),
              {complexLiteral("tensor<2x2xcomplex<f64>>", {{1, 2}, {3, 4}, {5, 6}, {7, 8}})});
  CHECK(pairs(t) == std::vector<Pair>{{1, 2}, {5, 6}, {3, 4}, {7, 8}});
  const Literal i = evalOne(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [], "ops": [{"op": "iota", "iota_dimension": 0, "type": "tensor<3xcomplex<f32>>",
    "result": "y"}], "outputs": [{"value": "y"}]})",
                            {});
  CHECK(pairs(i) == std::vector<Pair>{{0, 0}, {1, 0}, {2, 0}});
}

TEST_CASE("complex scalar bodies: JAX's argmax of (complex, i32) pairs, lexicographic by parts") {
  // jnp.argmax-like reduce (stablehlo/testdata reduce_complex128_4_6_int32_4_6):
  // the accumulator wins when its real part is larger, or equal with a
  // larger imaginary part; the index follows the value.
  for (const char *type : {"complex<f32>", "complex<f64>"}) {
    CAPTURE(type);
    const std::string t(type);
    const std::string scalar = "tensor<" + t + ">";
    Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "x", "type": "tensor<2x3x)" +
                            t + R"(>"},
               {"name": "i", "type": "tensor<2x3xi32>"}],
    "ops": [
      {"op": "constant", "result": "low", "type": ")" +
                            scalar + R"(", "value": ["-inf", "-inf"]},
      {"op": "constant", "result": "zero", "type": "tensor<i32>", "value": 0},
      {"op": "reduce", "operands": ["x", "i", "low", "zero"], "results": ["best", "at"],
       "dimensions": [1],
       "body": {"args": [{"name": "p", "type": ")" +
                            scalar + R"("}, {"name": "j", "type": "tensor<i32>"},
                         {"name": "q", "type": ")" +
                            scalar + R"("}, {"name": "k", "type": "tensor<i32>"}],
                "ops": [)" + std::string(shardgen::testing::kComplexMaxOps) +
                            R"(,
                        {"op": "select", "operands": ["first", "j", "k"], "result": "n"}],
                "return": ["m", "n"]}}],
    "outputs": [{"value": "best"}, {"value": "at"}]})");
    // Row 0: the real parts tie at 2, the imaginary part decides (index 2);
    // row 1: the real part beats -3, and an exact tie takes the element
    // (GT, not GE: index 2).
    const Literal x = complexLiteral("tensor<2x3x" + t + ">",
                                     {{1, 9}, {2, -1}, {2, 0.5}, {3, -7}, {-3, 100}, {3, -7}});
    const Literal i = intLiteral("tensor<2x3xi32>", {0, 1, 2, 0, 1, 2});
    std::vector<Literal> out = evaluate(graph, {x, i});
    REQUIRE(out.size() == 2);
    CHECK(pairs(out[0]) == std::vector<Pair>{{2, 0.5}, {3, -7}});
    CHECK(ints(out[1]) == std::vector<int64_t>{2, 2});
  }
}

TEST_CASE("complex scalar bodies: products, constants, abs, parts; cumprod; a sort by parts") {
  // A reduce whose body is p * (0.5 - 2i) + complex(|q|, imag(q)) (a
  // complex constant, abs of a complex value, its parts put together), a
  // cumprod (reduce_window) and jnp.sort's comparator over (real, imag).
  for (const char *type : {"complex<f32>", "complex<f64>"}) {
    CAPTURE(type);
    const std::string t(type), part = t == "complex<f32>" ? "f32" : "f64";
    const std::string scalar = "tensor<" + t + ">";
    Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "x", "type": "tensor<1x2x)" +
                            t + R"(>"},
               {"name": "c", "type": "tensor<4x)" +
                            t + R"(>"},
               {"name": "s", "type": "tensor<5x)" +
                            t + R"(>"}],
    "ops": [
      {"op": "constant", "result": "zero", "type": ")" +
                            scalar + R"(", "value": [0, 0]},
      {"op": "reduce", "operands": ["x", "zero"], "result": "r", "dimensions": [1],
       "body": {"args": [{"name": "p", "type": ")" +
                            scalar + R"("}, {"name": "q", "type": ")" + scalar + R"("}],
                "ops": [{"op": "constant", "result": "w", "type": ")" +
                            scalar + R"(", "value": [0.5, -2]},
                        {"op": "multiply", "operands": ["p", "w"], "result": "pw"},
                        {"op": "abs", "operands": ["q"], "result": "size"},
                        {"op": "imag", "operands": ["q"], "result": "qi"},
                        {"op": "complex", "operands": ["size", "qi"], "result": "sq"},
                        {"op": "add", "operands": ["pw", "sq"], "result": "sum"}],
                "return": ["sum"]}},
      {"op": "constant", "result": "one", "type": ")" +
                            scalar + R"(", "value": [1, 0]},
      {"op": "reduce_window", "operands": ["c", "one"], "result": "cumprod",
       "window_dimensions": [4], "padding": [[3, 0]],
       "body": {"args": [{"name": "p", "type": ")" +
                            scalar + R"("}, {"name": "q", "type": ")" + scalar + R"("}],
                "ops": [{"op": "multiply", "operands": ["p", "q"], "result": "pq"}],
                "return": ["pq"]}},
      {"op": "sort", "operands": ["s"], "result": "sorted", "dimension": 0,
       "comparator": {"args": [{"name": "p", "type": ")" +
                            scalar + R"("}, {"name": "q", "type": ")" + scalar + R"("}],
                      "ops": [{"op": "real", "operands": ["p"], "result": "pr"},
                              {"op": "real", "operands": ["q"], "result": "qr"},
                              {"op": "imag", "operands": ["p"], "result": "pi"},
                              {"op": "imag", "operands": ["q"], "result": "qi"},
                              {"op": "compare", "operands": ["pr", "qr"], "result": "lt",
                               "comparison_direction": "LT", "compare_type": "TOTALORDER"},
                              {"op": "compare", "operands": ["pr", "qr"], "result": "eq",
                               "comparison_direction": "EQ", "compare_type": "TOTALORDER"},
                              {"op": "compare", "operands": ["pi", "qi"], "result": "ilt",
                               "comparison_direction": "LT", "compare_type": "TOTALORDER"},
                              {"op": "and", "operands": ["eq", "ilt"], "result": "tie"},
                              {"op": "or", "operands": ["lt", "tie"], "result": "less"}],
                      "return": ["less"]}}],
    "outputs": [{"value": "r"}, {"value": "cumprod"}, {"value": "sorted"}]})");
    // The reduce: body(0, 2+4i) = sqrt(20) + 4i, then body(that, 3+4i) =
    // (sqrt(20) + 4i)(0.5 - 2i) + 5 + 4i = (sqrt(20)/2 + 13) + (6 - 2 sqrt(20))i.
    const Literal x = complexLiteral("tensor<1x2x" + t + ">", {{2, 4}, {3, 4}});
    const Literal c = complexLiteral("tensor<4x" + t + ">", {{0, 1}, {0, 1}, {2, 0}, {1, -1}});
    const Literal s =
        complexLiteral("tensor<5x" + t + ">", {{1, 2}, {-1, 5}, {1, -3}, {0, 0}, {-1, 4}});
    std::vector<Literal> out = evaluate(graph, {x, c, s});
    REQUIRE(out.size() == 3);
    const double modulus = t == "complex<f32>" ? double(std::sqrt(20.0f)) : std::sqrt(20.0);
    const double re = modulus * 0.5 + 8 + 5, im = -2 * modulus + 2 + 4;
    checkClose(out[0], {{re, im}}, t == "complex<f32>" ? 1e-6 : 1e-14);
    // cumprod: i, i*i = -1, -2, -2(1 - i) = -2 + 2i.
    CHECK(pairs(out[1]) == std::vector<Pair>{{0, 1}, {-1, 0}, {-2, 0}, {-2, 2}});
    CHECK(pairs(out[2]) == std::vector<Pair>{{-1, 4}, {-1, 5}, {0, 0}, {1, -3}, {1, 2}});
  }
}
