// The generated kernels of the bit ops (shifts, popcnt, count_leading_zeros,
// bitcast_convert, reduce_precision), is_finite and atan2 give the
// interpreter's bits on their edge values (amounts past the width and
// negative, INT_MIN, 0, infinities, NaN, subnormals), sharded on a 2x2 mesh.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/pipeline/Pipeline.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace bitops_codegen_test {

std::vector<Literal> compileAndRun(Graph &graph, const std::vector<Literal> &inputs) {
  SpmdProgram program = pipeline::propagateAndPartition(graph);
  GeneratedProgram generated = generateProgram(program);
  CompiledProgram compiled(program, generated);
  return compiled.run(inputs);
}

/// The compiled program's outputs have the interpreter's bytes.
void checkSameBits(const std::string &json, const std::vector<Literal> &inputs) {
  Graph graph = loadVerified(json);
  const std::vector<Literal> expected = evaluate(graph, inputs);
  const std::vector<Literal> actual = compileAndRun(graph, inputs);
  REQUIRE(actual.size() == expected.size());
  for (size_t o = 0; o < actual.size(); ++o) {
    CAPTURE(o);
    REQUIRE(actual[o].type() == expected[o].type());
    for (int64_t i = 0; i < actual[o].numElements(); ++i) {
      const size_t width = elementByteWidth(actual[o].elementType());
      CAPTURE(i);
      CHECK(std::memcmp(actual[o].data() + i * width, expected[o].data() + i * width, width) == 0);
    }
  }
}

/// `values` repeated to fill `type`.
Literal filled(const std::string &text, const std::vector<double> &values, bool integer) {
  std::string error;
  Literal out(*parseType(text, &error));
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const double v = values[static_cast<size_t>(i) % values.size()];
    if (integer)
      out.setInt(i, static_cast<int64_t>(v));
    else
      out.setFloat(i, v);
  }
  return out;
}

} // namespace bitops_codegen_test

using namespace bitops_codegen_test;

TEST_CASE("generated shifts, popcnt, count_leading_zeros: the interpreter's bits at the edges") {
  for (const char *element : {"i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64"}) {
    CAPTURE(element);
    const std::string t = std::string("tensor<6x7x") + element + ">";
    const std::string json =
        graphOn2x2("shifts",
                   R"({"name": "a", "type": ")" + t + R"(", "sharding": "<@m, [{x}, {y}]>"},
                {"name": "n", "type": ")" +
                       t + R"(", "sharding": "<@m, [{y}, {}]>"})",
                   R"({"op": "shift_left", "operands": ["a", "n"], "result": "l"},
                {"op": "shift_right_arithmetic", "operands": ["a", "n"], "result": "ra"},
                {"op": "shift_right_logical", "operands": ["a", "n"], "result": "rl"},
                {"op": "popcnt", "operands": ["a"], "result": "p"},
                {"op": "count_leading_zeros", "operands": ["a"], "result": "z"})",
                   R"({"value": "l"}, {"value": "ra"}, {"value": "rl"}, {"value": "p"},
                {"value": "z"})");
    // Values: 0, +-1, the extremes, a pattern; amounts: 0, 1, width - 1,
    // width, width + 1, 64, -1 (the 6x7 shape pairs each value with each).
    const std::vector<double> values = {0, 1, -1, -128, 127, 0x5a, -0x7f00, 2147483647, -9.2e18};
    const std::vector<double> amounts = {0, 1, 7, 8, 9, 15, 16, 31, 32, 33, 63, 64, 65, -1, -8};
    checkSameBits(json, {filled(t, values, true), filled(t, amounts, true)});
  }
}

TEST_CASE("generated is_finite, atan2, reduce_precision: the interpreter's bits at the edges") {
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values = {0,     -0.0,   1.5,        -3.5,           65519, 65520,
                                      1e-40, 1e-310, inf,        -inf,           nan,   1e30,
                                      -1e-5, 0.1,    1 + 0x1p-8, 1 + 3 * 0x1p-8, 6e-8,  -6.1e-5};
  for (const char *element : {"f32", "f64", "f16", "bf16"}) {
    CAPTURE(element);
    const std::string t = std::string("tensor<6x6x") + element + ">";
    const std::string json = graphOn2x2(
        "floats",
        R"({"name": "a", "type": ")" + t + R"(", "sharding": "<@m, [{x}, {y}]>"},
                {"name": "b", "type": ")" +
            t + R"("})",
        R"({"op": "is_finite", "operands": ["a"], "result": "f"},
                {"op": "atan2", "operands": ["a", "b"], "result": "t"},
                {"op": "reduce_precision", "operands": ["a"], "result": "h", "exponent_bits": 5,
                 "mantissa_bits": 10},
                {"op": "reduce_precision", "operands": ["a"], "result": "g", "exponent_bits": 8,
                 "mantissa_bits": 7},
                {"op": "reduce_precision", "operands": ["a"], "result": "e", "exponent_bits": 2,
                 "mantissa_bits": 1},
                {"op": "reduce_precision", "operands": ["a"], "result": "m0", "exponent_bits": 5,
                 "mantissa_bits": 0})",
        R"({"value": "f"}, {"value": "t"}, {"value": "h"}, {"value": "g"}, {"value": "e"},
                {"value": "m0"})");
    // atan2 is the same libm function in both (atan2f for f32, f16, bf16).
    checkSameBits(json,
                  {filled(t, values, false), filled(t, {1, -1, 0, -0.0, inf, nan, 2}, false)});
  }
}

TEST_CASE("generated bitcast_convert: bytes and bits, every width change, sharded") {
  const std::string json = graphOn2x2(
      "bitcast", R"({"name": "a", "type": "tensor<4x6xf32>", "sharding": "<@m, [{x}, {y}]>"},
                {"name": "p", "type": "tensor<4x6x16xi1>", "sharding": "<@m, [{y}, {x}, {}]>"})",
      R"({"op": "bitcast_convert", "operands": ["a"], "result": "i", "type": "tensor<4x6xi32>"},
                {"op": "bitcast_convert", "operands": ["a"], "result": "h",
                 "type": "tensor<4x6x4xui8>"},
                {"op": "bitcast_convert", "operands": ["h"], "result": "back",
                 "type": "tensor<4x6xf32>"},
                {"op": "bitcast_convert", "operands": ["a"], "result": "bits",
                 "type": "tensor<4x6x32xi1>"},
                {"op": "bitcast_convert", "operands": ["p"], "result": "half",
                 "type": "tensor<4x6xbf16>"},
                {"op": "reshape", "operands": ["a"], "result": "pairs", "type": "tensor<4x3x2xf32>"},
                {"op": "bitcast_convert", "operands": ["pairs"], "result": "wide",
                 "type": "tensor<4x3xf64>"},
                {"op": "bitcast_convert", "operands": ["pairs"], "result": "z",
                 "type": "tensor<4x3xcomplex<f32>>"},
                {"op": "bitcast_convert", "operands": ["z"], "result": "zi",
                 "type": "tensor<4x3xi64>"})",
      R"({"value": "i"}, {"value": "h"}, {"value": "back"}, {"value": "bits"},
                {"value": "half"}, {"value": "wide"}, {"value": "z"}, {"value": "zi"})");
  std::string error;
  Literal a(*parseType("tensor<4x6xf32>", &error)), p(*parseType("tensor<4x6x16xi1>", &error));
  for (int64_t i = 0; i < a.numElements(); ++i)
    a.setFloat(i, (i % 5 - 2) * 1.37e-3 * (i + 1));
  for (int64_t i = 0; i < p.numElements(); ++i)
    p.setInt(i, (i * 7 / 3) % 2);
  checkSameBits(json, {a, p});
}
