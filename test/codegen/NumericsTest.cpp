// Numerics of the compiled program against the reference interpreter:
// unreduced outputs gathered as full sums, IEEE maximum/minimum at signed
// zeros (elementwise, reducers, runtime collectives), tanh's edges, and
// `run --check`'s per-element bounds: deep f32/bf16/f16 networks pass,
// sharded or not, and any one-element corruption beyond the bound is caught.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "compiler/pipeline/Pipeline.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/RandomGraphGenerator.h"
#include "test/support/TestValues.h"
#include "test/support/TextFile.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

Literal floats(ElementType type, const Shape &shape, const std::vector<double> &values) {
  Literal out(TensorType{type, shape});
  for (size_t i = 0; i < values.size(); ++i)
    out.setFloat(static_cast<int64_t>(i), values[i]);
  return out;
}

/// Deterministic values in [-scale, scale] (a small LCG).
Literal spread(const TensorType &type, uint64_t seed, double scale) {
  Literal out(type);
  uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int64_t i = 0; i < out.numElements(); ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    out.setFloat(i, scale * (static_cast<double>(state >> 11) * 0x1p-53 * 2 - 1));
  }
  return out;
}

/// Every float element of every output, changed by just more than its
/// bound (or by one ulp, or a flipped sign, where the bound is 0), is
/// caught at that element; the unchanged outputs pass.
void checkEveryCorruptionCaught(const std::vector<Literal> &actual,
                                const BoundedEvaluation &expected) {
  REQUIRE_FALSE(compareOutputs(actual, expected).has_value());
  for (size_t o = 0; o < actual.size(); ++o) {
    const Literal &out = actual[o];
    if (!isFloat(out.elementType()))
      continue;
    for (int64_t i = 0; i < out.numElements(); ++i) {
      const double value = out.getFloat(i), bound = expected.bounds[o].getFloat(i);
      if (!std::isfinite(value))
        continue;
      REQUIRE(std::isfinite(bound)); // the graphs here determine every element
      std::vector<Literal> corrupted = actual;
      double wrong = bound == 0 ? (value == 0 ? -value : std::nextafter(value, 2 * value + 1))
                                : value + 1.5 * bound + std::fabs(value) * 0x1p-10;
      corrupted[o].setFloat(i, wrong);
      if (corrupted[o].getFloat(i) == value && std::signbit(wrong) == std::signbit(value))
        corrupted[o].setFloat(i, value + 4 * bound + 1); // lost to rounding: larger
      auto mismatch = compareOutputs(corrupted, expected);
      CAPTURE(o);
      CAPTURE(i);
      CAPTURE(value);
      CAPTURE(bound);
      REQUIRE(mismatch.has_value());
      CHECK(mismatch->output == o);
    }
  }
}

const std::string kHeader = R"({"format": "shardgen-graph", "version": 1, "name": "t", )";

} // namespace

TEST_CASE("an output unreduced on x is gathered as the full sum") {
  const std::string json =
      kHeader +
      R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<2x4xf32>", "sharding": "<@m, [{y}, {x}]>"},
               {"name": "b", "type": "tensor<4x1xf32>", "sharding": "<@m, [{x}, {}]>"}],
    "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "c",
             "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0],
             "sharding": "<@m, [{y}, {}], unreduced={x}>"}],
    "outputs": [{"value": "c", "sharding": "<@m, [{y}, {}], unreduced={x}>"}]})";
  Graph graph = loadVerified(json);
  const std::vector<Literal> inputs = {floats(ElementType::F32, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}),
                                       floats(ElementType::F32, {4, 1}, {1, 2, 10, 15})};
  std::vector<Literal> out = runCompiled(graph, inputs);
  REQUIRE(out.size() == 1);
  CHECK(out[0].getFloat(0) == 95);  // 1 + 4 + 30 + 60, not device 0's 5
  CHECK(out[0].getFloat(1) == 207); // 5 + 12 + 70 + 120
  CHECK(checkCompiledEqualsInterpreter(graph, 1) == "");
}

TEST_CASE("an input unreduced over y keeps its signed zeros through the all_reduce") {
  // The devices that do not hold the value contribute the sum's identity,
  // -0.0: a +0.0 there would turn every -0.0 element into +0.0.
  const std::string json = graphOn2x2(
      "unreduced_zeros",
      R"({"name": "a", "type": "tensor<2x4xf32>", "sharding": "<@m, [{x}, {}], unreduced={y}>"},
         {"name": "h", "type": "tensor<2x4xbf16>", "sharding": "<@m, [{}, {}], unreduced={x, y}>"})",
      R"({"op": "negate", "operands": ["a"], "result": "b", "sharding": "<@m, [{}, {}]>"},
         {"op": "negate", "operands": ["h"], "result": "g", "sharding": "<@m, [{}, {}]>"})",
      R"({"value": "b"}, {"value": "g"})");
  Graph graph = loadVerified(json);
  const std::vector<double> values = {-0.0, 0.0, 1.5, -0.0, 0.0, -2.0, -0.0, 0.0};
  const std::vector<Literal> inputs = {floats(ElementType::F32, {2, 4}, values),
                                       floats(ElementType::BF16, {2, 4}, values)};
  std::vector<Literal> out = runCompiled(graph, inputs);
  REQUIRE(out.size() == 2);
  for (const Literal &result : out)
    for (int64_t i = 0; i < 8; ++i) {
      CAPTURE(i);
      CHECK(result.getFloat(i) == -values[i]);
      CHECK(std::signbit(result.getFloat(i)) != std::signbit(values[i]));
    }
}

TEST_CASE("generated maximum/minimum, max/min reducers and collectives order signed zeros; "
          "tanh keeps -0 and reaches 1") {
  const std::string json =
      kHeader + R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4xf32>"}, {"name": "b", "type": "tensor<4xf32>"},
               {"name": "z", "type": "tensor<2xf32>", "sharding": "<@m, [{x}]>"},
               {"name": "w", "type": "tensor<2xf32>", "sharding": "<@m, [{x}]>"},
               {"name": "lo", "type": "tensor<f32>"}, {"name": "hi", "type": "tensor<f32>"}],
    "ops": [
      {"op": "maximum", "operands": ["a", "b"], "result": "mx"},
      {"op": "minimum", "operands": ["a", "b"], "result": "mn"},
      {"op": "tanh", "operands": ["a"], "result": "th"},
      {"op": "convert", "operands": ["a"], "result": "ah", "type": "tensor<4xf16>"},
      {"op": "convert", "operands": ["b"], "result": "bh", "type": "tensor<4xf16>"},
      {"op": "maximum", "operands": ["ah", "bh"], "result": "mxh"},
      {"op": "convert", "operands": ["a"], "result": "ab", "type": "tensor<4xbf16>"},
      {"op": "convert", "operands": ["b"], "result": "bb", "type": "tensor<4xbf16>"},
      {"op": "minimum", "operands": ["ab", "bb"], "result": "mnb"},
      {"op": "convert", "operands": ["a"], "result": "ad", "type": "tensor<4xf64>"},
      {"op": "convert", "operands": ["b"], "result": "bd", "type": "tensor<4xf64>"},
      {"op": "maximum", "operands": ["ad", "bd"], "result": "mxd"},
      {"op": "reduce", "operands": ["z", "lo"], "result": "rmax", "dimensions": [0], "reducer": "max"},
      {"op": "reduce", "operands": ["w", "hi"], "result": "rmin", "dimensions": [0], "reducer": "min"}
    ],
    "outputs": [{"value": "mx"}, {"value": "mn"}, {"value": "th"}, {"value": "mxh"},
                {"value": "mnb"}, {"value": "mxd"}, {"value": "rmax"}, {"value": "rmin"}]})";
  Graph graph = loadVerified(json);
  const std::vector<Literal> inputs = {floats(ElementType::F32, {4}, {0.0, -0.0, -0.0, 20}),
                                       floats(ElementType::F32, {4}, {-0.0, 0.0, -0.0, -9.5}),
                                       floats(ElementType::F32, {2}, {-0.0, 0.0}),
                                       floats(ElementType::F32, {2}, {0.0, -0.0}),
                                       floats(ElementType::F32, {}, {-1}),
                                       floats(ElementType::F32, {}, {1})};
  std::string source;
  std::vector<Literal> out = runCompiled(graph, inputs, &source);
  CHECK(source.find("allReduce") != std::string::npos); // the reducers meet in the runtime
  // Value and sign bit of each element.
  auto is = [](const Literal &x, std::vector<double> values) {
    for (size_t i = 0; i < values.size(); ++i)
      if (x.getFloat(i) != values[i] || std::signbit(x.getFloat(i)) != std::signbit(values[i]))
        return false;
    return true;
  };
  CHECK(is(out[0], {0.0, 0.0, -0.0, 20}));
  CHECK(is(out[1], {-0.0, -0.0, -0.0, -9.5}));
  CHECK(is(out[2], {0.0, -0.0, -0.0, 1.0}));
  CHECK(is(out[3], {0.0, 0.0, -0.0, 20}));
  CHECK(is(out[4], {-0.0, -0.0, -0.0, -9.5}));
  CHECK(is(out[5], {0.0, 0.0, -0.0, 20}));
  CHECK(is(out[6], {0.0}));
  CHECK(is(out[7], {-0.0}));
  // The interpreter agrees bit for bit (bounds 0: the same operations).
  const BoundedEvaluation expected = evaluateWithBounds(graph, inputs);
  CHECK_FALSE(compareOutputs(out, expected).has_value());
}

TEST_CASE("generated f32 exp, tanh and logistic at their edges: signed zeros, infinities, NaN, "
          "overflow and underflow thresholds, saturation") {
  const std::string json =
      kHeader + R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<20xf32>", "sharding": "<@m, [{x}]>"}],
    "ops": [{"op": "exponential", "operands": ["a"], "result": "e"},
            {"op": "tanh", "operands": ["a"], "result": "t"},
            {"op": "logistic", "operands": ["a"], "result": "l"}],
    "outputs": [{"value": "e"}, {"value": "t"}, {"value": "l"}]})";
  Graph graph = loadVerified(json);
  const double inf = INFINITY;
  const std::vector<double> edges = {0.0,   -0.0,   inf,    -inf,    NAN,   88.72f, 88.73f,
                                     89.0,  -87.3f, -103.0, -103.9f, -104,  9.0,    9.1f,
                                     -9.1f, 10,     20,     -20,     1e-40, -1e-40};
  const std::vector<Literal> inputs = {floats(ElementType::F32, {20}, edges)};
  std::vector<Literal> out = runCompiled(graph, inputs);
  const Literal &e = out[0], &t = out[1], &l = out[2];
  auto bits = [](double x, double y) {
    return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
  };
  CHECK(bits(e.getFloat(0), 1));
  CHECK(bits(e.getFloat(1), 1));
  CHECK(bits(e.getFloat(2), inf));
  CHECK(bits(e.getFloat(3), 0));
  CHECK(std::isnan(e.getFloat(4)));
  CHECK(std::isfinite(e.getFloat(5)));
  CHECK(bits(e.getFloat(6), inf));
  CHECK(bits(e.getFloat(11), 0));
  CHECK(bits(t.getFloat(0), 0.0));
  CHECK(bits(t.getFloat(1), -0.0));
  CHECK(bits(t.getFloat(2), 1));
  CHECK(bits(t.getFloat(3), -1));
  CHECK(std::isnan(t.getFloat(4)));
  CHECK(bits(t.getFloat(13), 1)); // 1 - tanh(9.1) < 2^-25: rounds to 1
  CHECK(bits(t.getFloat(14), -1));
  CHECK(bits(t.getFloat(16), 1)); // was 0.99999994
  CHECK(bits(t.getFloat(17), -1));
  CHECK(bits(t.getFloat(18), 1e-40f)); // tanh x = x for subnormal x
  CHECK(bits(t.getFloat(19), -1e-40f));
  CHECK(bits(l.getFloat(0), 0.5));
  CHECK(bits(l.getFloat(1), 0.5));
  CHECK(bits(l.getFloat(2), 1));
  CHECK(bits(l.getFloat(3), 0));
  CHECK(std::isnan(l.getFloat(4)));
  // And each within its bound of the interpreter (libm), exactly where
  // the result is an infinity, a zero of a sign, or NaN.
  CHECK_FALSE(compareOutputs(out, evaluateWithBounds(graph, inputs)).has_value());
}

namespace {} // namespace

TEST_CASE("generated f32 exp, tanh, logistic and log across the float range: within their "
          "documented ulp of the true value and of run --check's bound, which catches more") {
  // Every 4099th bit pattern: both signs, subnormals, infinities, NaNs.
  const int64_t count = (int64_t{1} << 32) / 4099 + 1;
  const std::string type = "tensor<" + std::to_string(count) + "xf32>";
  const std::string json = kHeader +
                           R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": ")" +
                           type + R"(", "sharding": "<@m, [{x}]>"}],
    "ops": [{"op": "exponential", "operands": ["a"], "result": "e"},
            {"op": "tanh", "operands": ["a"], "result": "t"},
            {"op": "logistic", "operands": ["a"], "result": "l"},
            {"op": "log", "operands": ["a"], "result": "g"}],
    "outputs": [{"value": "e"}, {"value": "t"}, {"value": "l"}, {"value": "g"}]})";
  Graph graph = loadVerified(json);
  Literal a(TensorType{ElementType::F32, {count}});
  for (int64_t i = 0; i < count; ++i)
    a.as<uint32_t>()[i] = static_cast<uint32_t>(i * 4099);
  const std::vector<Literal> inputs = {a};
  const std::vector<Literal> out = runCompiled(graph, inputs);
  double worst[4] = {};
  for (int64_t i = 0; i < count; ++i) {
    const double x = a.as<float>()[i];
    const double exact[4] = {std::exp(x), std::tanh(x), 1 / (1 + std::exp(-x)), std::log(x)};
    for (int k = 0; k < 4; ++k) {
      const double got = out[k].as<float>()[i];
      if (std::isnan(exact[k])) {
        CHECK(std::isnan(got));
      } else if (std::fabs(exact[k]) >= 0x1p-126 && std::fabs(exact[k]) < 0x1p128) {
        worst[k] = std::max(worst[k], ulpsFrom(got, exact[k]));
      } else if (std::isinf(exact[k])) {
        CHECK(got == exact[k]);
      }
    }
  }
  CAPTURE(worst[0]);
  CAPTURE(worst[1]);
  CAPTURE(worst[2]);
  CAPTURE(worst[3]);
  CHECK(worst[0] <= 1.5); // exp, normal results (1.1 on a denser scan)
  CHECK(worst[1] <= 3);   // tanh
  CHECK(worst[2] <= 4);   // logistic: exp, an add and a division
  CHECK(worst[3] <= 1);   // log
  // run --check passes them, with bounds of at most 10 ulp (8 for the
  // approximation, the roundings): a result two ulps beyond is caught.
  const BoundedEvaluation expected = evaluateWithBounds(graph, inputs);
  CHECK_FALSE(compareOutputs(out, expected).has_value());
  for (int k = 0; k < 4; ++k) {
    for (int64_t i = 0; i < count; i += 101) {
      const double want = expected.values[k].getFloat(i), bound = expected.bounds[k].getFloat(i);
      if (!std::isfinite(want) || std::fabs(want) < 0x1p-126)
        continue;
      const double ulp = std::ldexp(1.0, std::max(std::ilogb(want), -126) - 23);
      CAPTURE(k);
      CAPTURE(want);
      REQUIRE(bound <= 10 * ulp);
      BoundedEvaluation one;
      one.values = {floats(ElementType::F32, {1}, {want})};
      one.bounds = {floats(ElementType::F64, {1}, {bound})};
      const double beyond = want + bound + 2 * ulp;
      CHECK(compareOutputs({floats(ElementType::F32, {1}, {beyond})}, one).has_value());
    }
  }
}

TEST_CASE("bf16 and f16 dots on the blocked kernel (several depth blocks, bias and tanh fused, "
          "sharded) pass run --check; every one-element corruption is caught") {
  for (std::string t : {"bf16", "f16"}) {
    CAPTURE(t);
    const std::string json = kHeader +
                             R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
      "inputs": [{"name": "a", "type": "tensor<38x1100x)" +
                             t + R"(>", "sharding": "<@m, [{x}, {}]>"},
                 {"name": "b", "type": "tensor<1100x45x)" +
                             t + R"(>"},
                 {"name": "bias", "type": "tensor<45x)" +
                             t + R"(>"}],
      "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "c",
               "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
              {"op": "broadcast_in_dim", "operands": ["bias"], "result": "bb",
               "type": "tensor<38x45x)" +
                             t + R"(>", "broadcast_dimensions": [1]},
              {"op": "add", "operands": ["c", "bb"], "result": "d"},
              {"op": "tanh", "operands": ["d"], "result": "y"}],
      "outputs": [{"value": "y"}, {"value": "c"}]})";
    Graph graph = loadVerified(json);
    std::vector<Literal> inputs;
    for (size_t i = 0; i < graph.main.args.size(); ++i)
      inputs.push_back(spread(*graph.value(graph.main.args[i].value).type, i + 1, 0.1));
    std::vector<Literal> actual = runCompiled(graph, inputs);
    checkEveryCorruptionCaught(actual, evaluateWithBounds(graph, inputs));
  }
}

TEST_CASE("row and column reductions (vectorized: lanes, column blocks) agree with the "
          "interpreter in every float type, tails and signed zeros included") {
  for (std::string t : {"f32", "bf16", "f16"}) {
    CAPTURE(t);
    const std::string json = kHeader +
                             R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
      "inputs": [{"name": "a", "type": "tensor<6x70x131x)" +
                             t + R"(>", "sharding": "<@m, [{x}, {}, {}]>"}],
      "ops": [{"op": "constant", "result": "zero", "type": "tensor<)" +
                             t + R"(>", "value": -0.0},
              {"op": "constant", "result": "low", "type": "tensor<)" +
                             t + R"(>", "value": "-inf"},
              {"op": "reduce", "operands": ["a", "zero"], "result": "rows", "dimensions": [2],
               "reducer": "add", "type": "tensor<6x70x)" +
                             t + R"(>"},
              {"op": "reduce", "operands": ["a", "low"], "result": "rowmax", "dimensions": [2],
               "reducer": "max", "type": "tensor<6x70x)" +
                             t + R"(>"},
              {"op": "reduce", "operands": ["a", "zero"], "result": "cols", "dimensions": [1],
               "reducer": "add", "type": "tensor<6x131x)" +
                             t + R"(>"},
              {"op": "reduce", "operands": ["a", "low"], "result": "colmin", "dimensions": [0, 1],
               "reducer": "min", "type": "tensor<131x)" +
                             t + R"(>"}],
      "outputs": [{"value": "rows"}, {"value": "rowmax"}, {"value": "cols"}, {"value": "colmin"}]})";
    Graph graph = loadVerified(json);
    Literal a = spread(*graph.value(graph.main.args[0].value).type, 7, 4.0);
    for (int64_t i = 0; i < 131; ++i) // row 0: all -0, whose sum is -0
      a.setFloat(i, -0.0);
    const std::vector<Literal> inputs = {a};
    std::vector<Literal> actual = runCompiled(graph, inputs);
    CHECK(std::signbit(actual[0].getFloat(0)));
    checkEveryCorruptionCaught(actual, evaluateWithBounds(graph, inputs));
  }
}

TEST_CASE("column sums of types stored narrower than they add (a row at a time, in chunks, "
          "prefetching) give the interpreter's bits: a whole column block, a tail block, a "
          "partial chunk") {
  // 4163 columns: one block of kReduceColumns (4096) and a tail of 67 (a
  // chunk of 64 and 3); 9 rows.
  for (std::string t : {"bf16", "f16", "f8E4M3FN", "f32"}) {
    CAPTURE(t);
    const std::string json = kHeader +
                             R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 1}]}],
      "inputs": [{"name": "a", "type": "tensor<9x4163x)" +
                             t + R"(>"}],
      "ops": [{"op": "constant", "result": "zero", "type": "tensor<)" +
                             t + R"(>", "value": -0.0},
              {"op": "reduce", "operands": ["a", "zero"], "result": "cols", "dimensions": [0],
               "reducer": "add", "type": "tensor<4163x)" +
                             t + R"(>"}],
      "outputs": [{"value": "cols"}]})";
    Graph graph = loadVerified(json);
    Literal a = spread(*graph.value(graph.main.args[0].value).type, 11, 4.0);
    for (int64_t r = 0; r < 9; ++r) // column 4100 (in the tail block): all -0, whose sum is -0
      a.setFloat(r * 4163 + 4100, -0.0);
    const std::vector<Literal> inputs = {a};
    std::vector<Literal> actual = runCompiled(graph, inputs);
    const std::vector<Literal> expected = evaluate(graph, inputs);
    CHECK(std::signbit(actual[0].getFloat(4100)));
    for (int64_t c = 0; c < 4163; ++c) {
      CAPTURE(c);
      REQUIRE(actual[0].getFloat(c) == expected[0].getFloat(c));
    }
  }
}

TEST_CASE("run --check compares per element: 10 next to larger elements is not 210") {
  BoundedEvaluation expected;
  expected.values = {floats(ElementType::F32, {3}, {210, 5000, -0.0})};
  expected.bounds = {floats(ElementType::F64, {3}, {1e-3, 1e-3, 0})};
  std::vector<Literal> actual = {floats(ElementType::F32, {3}, {10, 5000, -0.0})};
  auto mismatch = compareOutputs(actual, expected, {}, {"y"});
  REQUIRE(mismatch.has_value());
  CHECK(mismatch->describe() ==
        "output 0 (y) differs at index [0]: got 10, expected 210, allowed difference 0.001");
  // An exact element: the sign of zero counts.
  actual = {floats(ElementType::F32, {3}, {210, 5000, 0.0})};
  REQUIRE(compareOutputs(actual, expected).has_value());
  CHECK(compareOutputs(actual, expected)->index == std::vector<int64_t>{2});
  // --rtol/--atol replace the bound.
  CHECK_FALSE(compareOutputs(actual, expected, {0.0, 0.0}).has_value() == false);
  actual = {floats(ElementType::F32, {3}, {211, 5000, -0.0})};
  CHECK(compareOutputs(actual, expected).has_value());
  CHECK_FALSE(compareOutputs(actual, expected, {0.01, std::nullopt}).has_value());
  // NaN only matches NaN; infinities exactly; an unknown (+inf) bound anything.
  expected.values = {floats(ElementType::F32, {3}, {NAN, INFINITY, 1})};
  expected.bounds = {floats(ElementType::F64, {3}, {1, 1e30, INFINITY})};
  CHECK_FALSE(compareOutputs({floats(ElementType::F32, {3}, {NAN, INFINITY, 7})}, expected));
  CHECK(compareOutputs({floats(ElementType::F32, {3}, {1, INFINITY, 1})}, expected));
  CHECK(compareOutputs({floats(ElementType::F32, {3}, {NAN, 3e38, 1})}, expected));
  // Integers exactly.
  expected.values = {floats(ElementType::I32, {2}, {3, 4})};
  expected.bounds = {floats(ElementType::F64, {2}, {0, 0})};
  CHECK(compareOutputs({floats(ElementType::I32, {2}, {3, 5})}, expected)->index ==
        std::vector<int64_t>{1});
}

TEST_CASE("the worst differing element: the largest excess over its bound, NaN worse than any") {
  BoundedEvaluation expected;
  expected.values = {floats(ElementType::F32, {4}, {1, 2, 3, 4}),
                     floats(ElementType::F32, {2}, {10, 20})};
  expected.bounds = {floats(ElementType::F64, {4}, {0.5, 0.5, 0.5, 0.5}),
                     floats(ElementType::F64, {2}, {8, 0})};
  // Excesses: 0.5 at [0] (first), 2.5 at [2] (worst of output 0), 1 at
  // output 1 [0] (a difference of 9 within a bound of 8 counts only 1).
  std::vector<Literal> actual = {floats(ElementType::F32, {4}, {2, 2, 6, 4}),
                                 floats(ElementType::F32, {2}, {19, 20})};
  auto first = compareOutputs(actual, expected, {}, {"a", "b"});
  REQUIRE(first.has_value());
  CHECK(first->index == std::vector<int64_t>{0});
  CHECK(first->differing == 1); // the first search stops there, counting nothing more
  auto worst = compareOutputs(actual, expected, {}, {"a", "b"}, MismatchSearch::Worst);
  REQUIRE(worst.has_value());
  CHECK(worst->describe() ==
        "output 0 (a) differs at index [2]: got 6, expected 3, allowed difference 0.5");
  CHECK(worst->differing == 3);
  // A NaN where a number is expected is worse than any finite difference.
  actual[1] = floats(ElementType::F32, {2}, {10, NAN});
  worst = compareOutputs(actual, expected, {}, {"a", "b"}, MismatchSearch::Worst);
  REQUIRE(worst.has_value());
  CHECK(worst->output == 1);
  CHECK(worst->index == std::vector<int64_t>{1});
  CHECK(worst->differing == 3);
  // Agreeing outputs: nothing, whichever the search.
  CHECK_FALSE(compareOutputs(expected.values, expected, {}, {}, MismatchSearch::Worst));
}

TEST_CASE("one-element corruptions of sample and random graph outputs are caught") {
  std::vector<std::string> graphs;
  for (const char *name : {"mlp", "attention", "dp_grad_step", "nx_sharding"})
    graphs.push_back(readFile(std::string(SHARDGEN_SOURCE_DIR) + "/samples/" + name + ".json"));
  for (uint64_t seed : {3, 11})
    graphs.push_back(randomGraphJson(seed));
  for (size_t g = 0; g < graphs.size(); ++g) {
    CAPTURE(g);
    Graph graph = loadVerified(graphs[g]);
    std::vector<Literal> inputs = randomInputs(graph, 5);
    std::vector<Literal> actual = runCompiled(graph, inputs);
    checkEveryCorruptionCaught(actual, evaluateWithBounds(graph, inputs));
  }
}

namespace {

/// Three 10-layer MLPs (f32, bf16, f16): h = tanh(h @ w_l + b_l). Sharded:
/// the batch on `data`; the weights alternately column- and row-sharded on
/// `model` (Megatron), so every other layer ends in an all_reduce.
std::string mlpGraph(bool sharded) {
  const int layers = 10;
  std::string inputs, ops, outputs;
  auto sharding = [&](const std::string &text) {
    return sharded ? R"(, "sharding": "<@m, )" + text + R"(>")" : std::string();
  };
  for (std::string t : {"f32", "bf16", "f16"}) {
    inputs += std::string(inputs.empty() ? "" : ", ") + R"({"name": "x_)" + t +
              R"(", "type": "tensor<8x16x)" + t + R"(>")" + sharding("[{data}, {}]") + "}";
    std::string h = "x_" + t;
    for (int l = 0; l < layers; ++l) {
      const std::string s = t + "_" + std::to_string(l);
      const bool column = l % 2 == 0;
      inputs += R"(, {"name": "w_)" + s + R"(", "type": "tensor<16x16x)" + t + R"(>")" +
                sharding(column ? "[{}, {model}]" : "[{model}, {}]") + "}";
      inputs += R"(, {"name": "b_)" + s + R"(", "type": "tensor<16x)" + t + R"(>")" +
                sharding(column ? "[{model}]" : "[{}]") + "}";
      ops += std::string(ops.empty() ? "" : ", ") + R"({"op": "dot_general", "operands": [")" + h +
             R"(", "w_)" + s + R"("], "result": "d_)" + s +
             R"(", "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}, )" +
             R"({"op": "broadcast_in_dim", "operands": ["b_)" + s + R"("], "result": "bb_)" + s +
             R"(", "type": "tensor<8x16x)" + t + R"(>", "broadcast_dimensions": [1]}, )" +
             R"({"op": "add", "operands": ["d_)" + s + R"(", "bb_)" + s + R"("], "result": "a_)" +
             s + R"("}, )" + R"({"op": "tanh", "operands": ["a_)" + s + R"("], "result": "h_)" + s +
             R"("})";
      h = "h_" + s;
    }
    outputs += std::string(outputs.empty() ? "" : ", ") + R"({"value": ")" + h + R"("})";
  }
  return kHeader +
         R"("meshes": [{"name": "m", "axes": [{"name": "data", "size": 2}, {"name": "model", "size": 2}]}], "inputs": [)" +
         inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs + "]}";
}

} // namespace

TEST_CASE("10-layer f32, bf16 and f16 MLPs pass run --check, unsharded and sharded") {
  for (bool sharded : {false, true}) {
    CAPTURE(sharded);
    Graph graph = loadVerified(mlpGraph(sharded));
    std::vector<Literal> inputs;
    for (size_t i = 0; i < graph.main.args.size(); ++i) {
      const Value &value = graph.value(graph.main.args[i].value);
      // Small weights: activations stay off tanh's plateaus and the network
      // does not amplify errors (the bounds are worst cases, they grow with
      // the layers' gain).
      inputs.push_back(spread(*value.type, i, value.name.rfind("w_", 0) == 0 ? 0.15 : 1.0));
    }
    std::vector<Literal> actual = runCompiled(graph, inputs);
    BoundedEvaluation expected = evaluateWithBounds(graph, inputs);
    checkEveryCorruptionCaught(actual, expected);
    // The bounds stay useful: well below the values' scale (|h| < 1).
    for (size_t o = 0; o < expected.bounds.size(); ++o) {
      double largest = 0;
      for (int64_t i = 0; i < expected.bounds[o].numElements(); ++i)
        largest = std::max(largest, expected.bounds[o].getFloat(i));
      CAPTURE(o);
      CHECK(largest < (o == 0 ? 1e-4 : 0.1)); // f32; bf16 and f16 (about 0.08 and 0.01)
    }
  }
}

TEST_CASE("generated rounding, cbrt and tan give the interpreter's values: ties, signs, NaN") {
  // Ties round to even (round_nearest_even) or away from zero
  // (round_nearest_afz), in f32 and through f16's f32 compute.
  const std::vector<float> values = {0.5f,  1.5f,  2.5f,  -0.5f, -2.5f, 3.49999f, -0.0f,
                                     27.0f, -8.0f, 1e30f, 0.0f,  NAN,   INFINITY, -INFINITY};
  const std::string type = "tensor<" + std::to_string(values.size()) + "xf32>";
  const std::string json = kHeader + R"("meshes": [], "inputs": [{"name": "a", "type": ")" + type +
                           R"("}],
    "ops": [{"op": "round_nearest_even", "operands": ["a"], "result": "e"},
            {"op": "round_nearest_afz", "operands": ["a"], "result": "z"},
            {"op": "cbrt", "operands": ["a"], "result": "c"},
            {"op": "tan", "operands": ["a"], "result": "t"}],
    "outputs": [{"value": "e"}, {"value": "z"}, {"value": "c"}, {"value": "t"}]})";
  Graph graph = loadVerified(json);
  Literal a(TensorType{ElementType::F32, {static_cast<int64_t>(values.size())}});
  for (size_t i = 0; i < values.size(); ++i)
    a.as<float>()[i] = values[i];
  const std::vector<Literal> out = runCompiled(graph, {a});
  const std::vector<float> even = {0, 2, 2, -0.0f, -2, 3, -0.0f, 27, -8, 1e30f, 0};
  const std::vector<float> away = {1, 2, 3, -1, -3, 3, -0.0f, 27, -8, 1e30f, 0};
  for (size_t i = 0; i < even.size(); ++i) {
    CAPTURE(values[i]);
    CHECK(out[0].as<float>()[i] == even[i]);
    CHECK(std::signbit(out[0].as<float>()[i]) == std::signbit(even[i]));
    CHECK(out[1].as<float>()[i] == away[i]);
  }
  CHECK(out[2].as<float>()[7] == 3);
  CHECK(out[2].as<float>()[8] == -2);
  CHECK(out[3].as<float>()[10] == 0);
  for (size_t k = 0; k < 4; ++k)
    CHECK(std::isnan(out[k].as<float>()[11]));
  CHECK(out[0].as<float>()[12] == INFINITY);
  CHECK(out[2].as<float>()[13] == -INFINITY);
}
