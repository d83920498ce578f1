// The window ops compiled and run on a 2x2 mesh against the interpreter:
// pooling and cumsum (reduce_window), the max-pool gradient
// (select_and_scatter) and convolution, each with operands sharded on the
// dims that pass through (no communication), on the reduced input features
// (partial sums and an all_reduce) and on windowed dims (halos exchanged,
// or gathered first where a base dilation refuses the halo).

#include <doctest/doctest.h>

#include <cmath>
#include <tuple>

#include "compiler/interp/Interpreter.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"
#include "test/support/WindowBodies.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const char *kGeBody =
    R"({"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
  "ops": [{"op": "compare", "comparison_direction": "GE", "operands": ["a", "b"], "result": "c"}],
  "return": ["c"]})";

/// The dimension numbers of an NHWC lhs, an HWIO kernel and an NHWC result
/// (the layout convolutionLowered runs), and of their 1-d forms.
const std::string kConvNhwc =
    R"("input_batch_dimension": 0, "input_feature_dimension": 3, "input_spatial_dimensions": [1, 2],
     "kernel_input_feature_dimension": 2, "kernel_output_feature_dimension": 3,
     "kernel_spatial_dimensions": [0, 1], "output_batch_dimension": 0,
     "output_feature_dimension": 3, "output_spatial_dimensions": [1, 2])";
const std::string kConvNwc =
    R"("input_batch_dimension": 0, "input_feature_dimension": 2, "input_spatial_dimensions": [1],
     "kernel_input_feature_dimension": 1, "kernel_output_feature_dimension": 2,
     "kernel_spatial_dimensions": [0], "output_batch_dimension": 0,
     "output_feature_dimension": 2, "output_spatial_dimensions": [1])";

} // namespace

TEST_CASE("reduce_window on a 2x2 mesh: max and average pooling, cumsum, dilations") {
  const std::string ops = std::string(R"(
    {"op": "constant", "value": "-inf", "type": "tensor<f32>", "result": "lowest"},
    {"op": "constant", "value": 0.0, "type": "tensor<f32>", "result": "zero"},
    {"op": "constant", "value": 1.5, "type": "tensor<f32>", "result": "odd"},
    {"op": "reduce_window", "operands": ["a", "lowest"], "result": "max",
     "window_dimensions": [1, 2, 2, 1], "window_strides": [1, 2, 2, 1], "body": )") +
                          kMaxBody + R"(},
    {"op": "reduce_window", "operands": ["a", "zero"], "result": "sum",
     "window_dimensions": [1, 3, 3, 1], "window_strides": [1, 2, 2, 1],
     "padding": [[0, 0], [1, 1], [1, 1], [0, 0]], "body": )" +
                          kAddBody + R"(},
    {"op": "reduce_window", "operands": ["c", "zero"], "result": "cumsum",
     "window_dimensions": [1, 10], "padding": [[0, 0], [9, 0]], "body": )" +
                          kAddBody + R"(},
    {"op": "reduce_window", "operands": ["c", "odd"], "result": "dilated",
     "window_dimensions": [2, 3], "window_strides": [1, 2], "base_dilations": [2, 1],
     "window_dilations": [1, 2], "padding": [[1, -1], [2, 1]], "body": )" +
                          kAddBody + R"(})";
  const std::string outputs =
      R"({"value": "max"}, {"value": "sum", "sharding": "<@m, [{}, {}, {}, {y}]>"},
         {"value": "cumsum"}, {"value": "dilated"})";
  for (const char *sharding : {"[{x}, {}, {}, {y}]", "[{}, {x}, {}, {}]", "[{y}, {}, {x}, {}]"}) {
    CAPTURE(sharding);
    const std::string inputs =
        R"({"name": "a", "type": "tensor<4x8x8x6xf32>", "sharding": "<@m, )" +
        std::string(sharding) +
        R"(>"}, {"name": "c", "type": "tensor<4x10xf32>", "sharding": "<@m, [{x}, {y}]>"})";
    Graph graph = loadVerified(graphOn2x2("windows", inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 3) == "");
  }
}

TEST_CASE("select_and_scatter on a 2x2 mesh: the max-pool gradient") {
  const std::string ops = std::string(R"(
    {"op": "constant", "value": 0.0, "type": "tensor<f32>", "result": "zero"},
    {"op": "select_and_scatter", "operands": ["a", "g", "zero"], "result": "grad",
     "window_dimensions": [1, 2, 2, 1], "window_strides": [1, 2, 2, 1], "select": )") +
                          kGeBody + R"(, "scatter": )" + kAddBody + R"(},
    {"op": "select_and_scatter", "operands": ["a", "h", "zero"], "result": "padded",
     "window_dimensions": [1, 3, 3, 1], "window_strides": [1, 2, 2, 1],
     "padding": [[0, 0], [1, 1], [1, 1], [0, 0]], "select": )" +
                          kGeBody + R"(, "scatter": )" + kAddBody + R"(})";
  for (const char *sharding : {"[{x}, {}, {}, {y}]", "[{}, {y}, {x}, {}]"}) {
    CAPTURE(sharding);
    const std::string inputs =
        R"({"name": "a", "type": "tensor<4x8x8x6xf32>", "sharding": "<@m, )" +
        std::string(sharding) + R"(>"}, {"name": "g", "type": "tensor<4x4x4x6xf32>"},
           {"name": "h", "type": "tensor<4x4x4x6xf32>", "sharding": "<@m, [{x}, {}, {}, {}]>"})";
    Graph graph = loadVerified(
        graphOn2x2("pool_grad", inputs, ops, R"({"value": "grad"}, {"value": "padded"})"));
    CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
  }
}

TEST_CASE("convolution on a 2x2 mesh: batch, output and input features sharded; groups") {
  const std::string conv = R"("input_batch_dimension": 0, "input_feature_dimension": 3,
     "input_spatial_dimensions": [1, 2], "kernel_input_feature_dimension": 2,
     "kernel_output_feature_dimension": 3, "kernel_spatial_dimensions": [0, 1],
     "output_batch_dimension": 0, "output_feature_dimension": 3, "output_spatial_dimensions": [1, 2])";
  const std::string ops = R"(
    {"op": "convolution", "operands": ["x", "w"], "result": "same", )" +
                          conv + R"(,
     "padding": [[1, 1], [1, 1]]},
    {"op": "convolution", "operands": ["x", "w"], "result": "strided", )" +
                          conv + R"(,
     "window_strides": [2, 1], "lhs_dilation": [1, 2], "rhs_dilation": [2, 1],
     "window_reversal": [true, false], "padding": [[2, 0], [0, 1]]},
    {"op": "convolution", "operands": ["x", "g"], "result": "grouped", )" +
                          conv + R"(,
     "feature_group_count": 2},
    {"op": "convolution", "operands": ["x", "v"], "result": "batched", )" +
                          conv + R"(,
     "batch_group_count": 2})";
  const std::string outputs =
      R"({"value": "same"}, {"value": "strided", "sharding": "<@m, [{x}, {}, {}, {}]>"},
         {"value": "grouped"}, {"value": "batched"})";
  for (auto [x, w] : {std::pair{"[{x}, {}, {}, {}]", "[{}, {}, {}, {y}]"},
                      std::pair{"[{x}, {}, {}, {y}]", "[{}, {}, {y}, {}]"},
                      std::pair{"[{}, {y}, {x}, {}]", "[{x}, {}, {}, {}]"}}) {
    CAPTURE(x);
    CAPTURE(w);
    const std::string inputs =
        R"({"name": "x", "type": "tensor<4x7x6x4xf32>", "sharding": "<@m, )" + std::string(x) +
        R"(>"}, {"name": "w", "type": "tensor<3x3x4x6xf32>", "sharding": "<@m, )" + std::string(w) +
        R"(>"},
           {"name": "g", "type": "tensor<3x3x2x6xf32>", "sharding": "<@m, [{}, {}, {}, {y}]>"},
           {"name": "v", "type": "tensor<3x3x4x6xf32>", "sharding": "<@m, [{}, {}, {}, {x}]>"})";
    Graph graph = loadVerified(graphOn2x2("conv", inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("convolution of integers widened to the result type, and bf16") {
  const std::string conv = R"("input_batch_dimension": 0, "input_feature_dimension": 1,
     "input_spatial_dimensions": [2], "kernel_input_feature_dimension": 1,
     "kernel_output_feature_dimension": 0, "kernel_spatial_dimensions": [2],
     "output_batch_dimension": 0, "output_feature_dimension": 1, "output_spatial_dimensions": [2],
     "padding": [[1, 1]])";
  const std::string ops = R"(
    {"op": "convolution", "operands": ["x", "w"], "result": "wide", "type": "tensor<4x6x9xi32>", )" +
                          conv + R"(},
    {"op": "convolution", "operands": ["p", "q"], "result": "half", )" +
                          conv + R"(})";
  const std::string inputs =
      R"({"name": "x", "type": "tensor<4x8x9xi8>", "sharding": "<@m, [{x}, {y}, {}]>"},
         {"name": "w", "type": "tensor<6x8x3xi8>", "sharding": "<@m, [{}, {y}, {}]>"},
         {"name": "p", "type": "tensor<4x8x9xbf16>", "sharding": "<@m, [{x}, {y}, {}]>"},
         {"name": "q", "type": "tensor<6x8x3xbf16>"})";
  Graph graph =
      loadVerified(graphOn2x2("conv1d", inputs, ops, R"({"value": "wide"}, {"value": "half"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 13) == "");
}

TEST_CASE("convolution: an infinite weight over padding gives NaN in both kernels") {
  // The padded lhs holds zeros: 0 * inf is NaN where the one infinite
  // weight meets padding, +-inf elsewhere in its output feature. The
  // NHWC/HWIO convolution runs the implicit matmul, the NCW one the direct
  // loops; H sharded exchanges halos.
  const std::string ops = R"(
    {"op": "constant", "result": "w", "type": "tensor<3x3x4x5xf32>", "value": 0.5},
    {"op": "constant", "result": "big", "type": "tensor<f32>", "value": "inf"},
    {"op": "constant", "result": "k0", "type": "tensor<i32>", "value": 0},
    {"op": "broadcast_in_dim", "operands": ["big"], "result": "one", "type": "tensor<1x1x1x1xf32>",
     "broadcast_dimensions": []},
    {"op": "dynamic_update_slice", "operands": ["w", "one", "k0", "k0", "k0", "k0"],
     "result": "wi"},
    {"op": "convolution", "operands": ["x", "wi"], "result": "y", "padding": [[1, 1], [1, 1]],
     )" + kConvNhwc + R"(,
     "sharding": "<@m, [{}, {x}, {}, {}]>"},
    {"op": "constant", "result": "v", "type": "tensor<2x3x3xf32>", "value": 1.0},
    {"op": "reshape", "operands": ["one"], "result": "tap", "type": "tensor<1x1x1xf32>"},
    {"op": "dynamic_update_slice", "operands": ["v", "tap", "k0", "k0", "k0"], "result": "vi"},
    {"op": "convolution", "operands": ["p", "vi"], "result": "z", "padding": [[2, 0]],
     "input_batch_dimension": 0, "input_feature_dimension": 1, "input_spatial_dimensions": [2],
     "kernel_input_feature_dimension": 1, "kernel_output_feature_dimension": 0,
     "kernel_spatial_dimensions": [2], "output_batch_dimension": 0,
     "output_feature_dimension": 1, "output_spatial_dimensions": [2]})";
  Graph graph = loadVerified(graphOn2x2(
      "conv_inf",
      R"({"name": "x", "type": "tensor<2x6x5x4xf32>", "sharding": "<@m, [{}, {x}, {}, {}]>"},
         {"name": "p", "type": "tensor<2x3x7xf32>"})",
      ops, R"({"value": "y"}, {"value": "z"})"));
  // --check leaves non-finite elements unbounded: compare them here.
  const std::vector<Literal> inputs = randomInputs(graph, 23);
  const std::vector<Literal> expected = evaluate(graph, inputs);
  const std::vector<Literal> actual = runCompiled(graph, inputs);
  REQUIRE(actual.size() == 2);
  int64_t nans = 0;
  for (size_t o = 0; o < 2; ++o)
    for (int64_t i = 0; i < expected[o].numElements(); ++i) {
      const double want = expected[o].getFloat(i), got = actual[o].getFloat(i);
      nans += std::isnan(want);
      CAPTURE(o);
      CAPTURE(i);
      CHECK(std::isnan(got) == std::isnan(want));
      if (std::isinf(want))
        CHECK(got == want);
    }
  // y: a top row and left column per batch, z: two places per batch (and
  // wherever a random input is 0).
  CHECK(nans >= 2 * (6 + 5 - 1) + 2 * 2);
  CHECK(checkCompiledEqualsInterpreter(graph, 23) == "");
}

TEST_CASE("convolution of complex values, input features sharded (a complex sum)") {
  const std::string conv = R"("input_batch_dimension": 0, "input_feature_dimension": 1,
     "input_spatial_dimensions": [2], "kernel_input_feature_dimension": 1,
     "kernel_output_feature_dimension": 0, "kernel_spatial_dimensions": [2],
     "output_batch_dimension": 0, "output_feature_dimension": 1, "output_spatial_dimensions": [2])";
  const std::string ops = R"(
    {"op": "convolution", "operands": ["x", "w"], "result": "y", "padding": [[1, 1]], )" +
                          conv + R"(},
    {"op": "convolution", "operands": ["p", "q"], "result": "z", "window_strides": [2],
     "rhs_dilation": [2], "padding": [[2, 1]], )" +
                          conv + R"(})";
  const std::string inputs =
      R"({"name": "x", "type": "tensor<4x8x9xcomplex<f32>>", "sharding": "<@m, [{x}, {y}, {}]>"},
         {"name": "w", "type": "tensor<6x8x3xcomplex<f32>>", "sharding": "<@m, [{}, {y}, {}]>"},
         {"name": "p", "type": "tensor<2x5x4xcomplex<f64>>"},
         {"name": "q", "type": "tensor<3x5x2xcomplex<f64>>", "sharding": "<@m, [{x}, {}, {}]>"})";
  Graph graph = loadVerified(graphOn2x2("cconv", inputs, ops, R"({"value": "y"}, {"value": "z"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 17) == "");
}

TEST_CASE("convolution lowered to the matmul: chunks of points and a tail, 1-d and 3-d") {
  // 2 x 30 x 20 = 1200 output points: a chunk of 768 and a tail of 432.
  const std::string ops = R"(
    {"op": "convolution", "operands": ["x", "w"], "result": "y2",
     )" + kConvNhwc + R"(,
     "padding": [[1, 1], [2, 0]], "rhs_dilation": [1, 2], "window_reversal": [false, true]},
    {"op": "convolution", "operands": ["s", "k"], "result": "y1",
     )" + kConvNwc + R"(,
     "window_strides": [3], "lhs_dilation": [2], "padding": [[4, 1]]},
    {"op": "convolution", "operands": ["v", "u"], "result": "y3",
     "input_batch_dimension": 0, "input_feature_dimension": 4, "input_spatial_dimensions": [1, 2, 3],
     "kernel_input_feature_dimension": 3, "kernel_output_feature_dimension": 4,
     "kernel_spatial_dimensions": [0, 1, 2], "output_batch_dimension": 0,
     "output_feature_dimension": 4, "output_spatial_dimensions": [1, 2, 3],
     "padding": [[1, 1], [0, 0], [1, 0]]})";
  const std::string inputs =
      R"({"name": "x", "type": "tensor<2x30x20x8xf32>"}, {"name": "w", "type": "tensor<3x3x8x20xf32>"},
         {"name": "s", "type": "tensor<4x50x5xf32>", "sharding": "<@m, [{x}, {}, {}]>"},
         {"name": "k", "type": "tensor<5x5x7xf32>", "sharding": "<@m, [{}, {}, {y}]>"},
         {"name": "v", "type": "tensor<2x4x5x6x3xf32>"}, {"name": "u", "type": "tensor<3x2x2x3x4xf32>"})";
  Graph graph = loadVerified(
      graphOn2x2("lowered", inputs, ops, R"({"value": "y2"}, {"value": "y1"}, {"value": "y3"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 17) == "");
  CHECK(countOccurrences(
            generatedSource(graphOn2x2("lowered", inputs, ops,
                                       R"({"value": "y2"}, {"value": "y1"}, {"value": "y3"})")),
            "convolutionLowered<") >= 3);
}

TEST_CASE("reduce_window of two inputs on a 2x2 mesh: max pooling with its argmax") {
  const std::string ops = R"(
    {"op": "iota", "iota_dimension": 2, "type": "tensor<4x6x8xi32>", "result": "index"},
    {"op": "constant", "value": "-inf", "type": "tensor<f32>", "result": "lowest"},
    {"op": "constant", "value": -1, "type": "tensor<i32>", "result": "none"},
    {"op": "reduce_window", "operands": ["a", "index", "lowest", "none"], "results": ["m", "i"],
     "window_dimensions": [1, 2, 3], "window_strides": [1, 2, 2], "padding": [[0, 0], [0, 1], [1, 1]],
     "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "ai", "type": "tensor<i32>"},
                       {"name": "b", "type": "tensor<f32>"}, {"name": "bi", "type": "tensor<i32>"}],
              "ops": [{"op": "compare", "comparison_direction": "GT", "operands": ["b", "a"], "result": "gt"},
                      {"op": "select", "operands": ["gt", "b", "a"], "result": "v"},
                      {"op": "select", "operands": ["gt", "bi", "ai"], "result": "j"}],
              "return": ["v", "j"]}})";
  for (const char *sharding : {"[{x}, {}, {y}]", "[{y}, {x}, {}]"}) {
    CAPTURE(sharding);
    const std::string inputs = R"({"name": "a", "type": "tensor<4x6x8xf32>", "sharding": "<@m, )" +
                               std::string(sharding) + R"(>"})";
    Graph graph =
        loadVerified(graphOn2x2("argmax_pool", inputs, ops, R"({"value": "m"}, {"value": "i"})"));
    CHECK(checkCompiledEqualsInterpreter(graph, 19) == "");
  }
}

TEST_CASE("window ops at the edges: rank 0, empty inputs, an empty kernel, windows of padding") {
  // reduce_window of a scalar (one window: body(init, x)); of an empty input
  // padded into windows of init values only; a convolution whose kernel has
  // no positions (zeros); select_and_scatter windows that lie in padding
  // select nothing.
  const std::string inputs =
      R"({"name": "s", "type": "tensor<f32>"}, {"name": "e", "type": "tensor<0x4xf32>"}, {"name": "k", "type": "tensor<2x0x4xf32>"}, {"name": "x", "type": "tensor<2x5x4xf32>", "sharding": "<@m, [{x}, {}, {y}]>"}, {"name": "z", "type": "tensor<3x4xf32>"})";
  const std::string ops = R"(
    {"op": "constant", "result": "one", "value": 1.0, "type": "tensor<f32>"},
    {"op": "constant", "result": "zs", "value": 2.0, "type": "tensor<11x1xf32>"},
    {"op": "reduce_window", "operands": ["s", "one"], "result": "r0", "window_dimensions": [], "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}], "ops": [{"op": "add", "operands": ["a", "b"], "result": "t"}], "return": ["t"]}},
    {"op": "reduce_window", "operands": ["e", "one"], "result": "r1", "window_dimensions": [1, 2], "padding": [[2, 0], [0, 0]], "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}], "ops": [{"op": "multiply", "operands": ["a", "b"], "result": "t"}], "return": ["t"]}},
    {"op": "convolution", "operands": ["x", "k"], "result": "c0", "input_batch_dimension": 0, "input_feature_dimension": 2, "input_spatial_dimensions": [1], "kernel_input_feature_dimension": 2, "kernel_output_feature_dimension": 0, "kernel_spatial_dimensions": [1], "output_batch_dimension": 0, "output_feature_dimension": 2, "output_spatial_dimensions": [1], "padding": [[1, 0]]},
    {"op": "select_and_scatter", "operands": ["z", "zs", "one"], "result": "g", "window_dimensions": [3, 4], "window_strides": [1, 1], "padding": [[5, 5], [0, 0]], "select": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}], "ops": [{"op": "compare", "operands": ["a", "b"], "result": "c", "comparison_direction": "GE"}], "return": ["c"]}, "scatter": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}], "ops": [{"op": "add", "operands": ["a", "b"], "result": "t"}], "return": ["t"]}})";
  Graph graph = loadVerified(
      graphOn2x2("edges", inputs, ops,
                 R"({"value": "r0"}, {"value": "r1"}, {"value": "c0"}, {"value": "g"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 23) == "");
}

namespace {

/// An NHWC image on mesh [x=`a`, y=`b`] sharded by `sharding` through a 3x3
/// SAME convolution, a 2x2/2 max-pool, a 3x3/2 SAME max-pool, a 3x3/1 SAME
/// average pool (reduce_window add, then a scale) and a 3x3 VALID sum; the
/// spatially sharded dims stay sharded (halos exchanged, WindowHalo.h).
std::string haloGraph(int64_t a, int64_t b, const std::string &sharding) {
  const std::string window = R"(, "body": )";
  return R"({"format": "shardgen-graph", "version": 1, "name": "halo",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": )" +
         std::to_string(a) + R"(}, {"name": "y", "size": )" + std::to_string(b) + R"(}]}],
    "inputs": [{"name": "image", "type": "tensor<2x16x8x3xf32>", "sharding": "<@m, )" +
         sharding + R"(>"}, {"name": "k", "type": "tensor<3x3x3x4xf32>"}],
    "ops": [
      {"op": "convolution", "operands": ["image", "k"], "result": "conv",
       )" +
         kConvNhwc + R"(,
       "padding": [[1, 1], [1, 1]]},
      {"op": "constant", "value": "-inf", "type": "tensor<f32>", "result": "lowest"},
      {"op": "constant", "value": 0.0, "type": "tensor<f32>", "result": "zero"},
      {"op": "reduce_window", "operands": ["conv", "lowest"], "result": "pool2",
       "window_dimensions": [1, 2, 2, 1], "window_strides": [1, 2, 2, 1])" +
         window + kMaxBody + R"(},
      {"op": "reduce_window", "operands": ["conv", "lowest"], "result": "pool3",
       "window_dimensions": [1, 3, 3, 1], "window_strides": [1, 2, 2, 1],
       "padding": [[0, 0], [0, 1], [0, 1], [0, 0]])" +
         window + kMaxBody + R"(},
      {"op": "reduce_window", "operands": ["image", "zero"], "result": "sum3",
       "window_dimensions": [1, 3, 3, 1], "padding": [[0, 0], [1, 1], [1, 1], [0, 0]])" +
         window + kAddBody + R"(},
      {"op": "constant", "value": 0.11111111, "type": "tensor<2x16x8x3xf32>", "result": "ninth"},
      {"op": "multiply", "operands": ["sum3", "ninth"], "result": "avg"},
      {"op": "reduce_window", "operands": ["image", "zero"], "result": "valid",
       "window_dimensions": [1, 3, 3, 1])" +
         window + kAddBody + R"(}],
    "outputs": [{"value": "pool2"}, {"value": "pool3"}, {"value": "avg"}, {"value": "valid"}]})";
}

} // namespace

TEST_CASE("spatially sharded windows exchange halos: compiled equals the interpreter") {
  for (auto [a, b, sharding] :
       {std::tuple{2, 2, "[{}, {x}, {}, {}]"}, std::tuple{2, 2, "[{x}, {y}, {}, {}]"},
        std::tuple{2, 2, "[{}, {x}, {y}, {}]"}, std::tuple{1, 4, "[{}, {y}, {}, {}]"},
        std::tuple{1, 4, "[{}, {}, {y}, {}]"}}) {
    CAPTURE(sharding);
    Graph graph = loadVerified(haloGraph(a, b, sharding));
    SpmdProgram program = partitionVerified(graph);
    size_t exchanges = 0, gathersForOps = 0;
    for (const SpmdStep &step : program.steps) {
      exchanges += step.kind == StepKind::Redistribute;
      gathersForOps += step.kind == StepKind::AllGather && step.op != nullptr;
    }
    // conv, pool3, sum3 and valid exchange halos (pool2's 2x2/2 windows
    // read their own shard only); only the (replicated) outputs are gathered.
    CHECK(exchanges == 4);
    CHECK(gathersForOps == 0);
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("convolution lowered to the matmul at its edges: blocks, tiles and panels cut short") {
  // y2: stride 2, padding on every side, rhs dilation, 17 input features,
  // 40 output features (a full panel and one of 8): 3 x 11 x 10 = 330
  // points, three row blocks and one of 42, its last tile of 2 rows. y1: a
  // window of 700 positions (shorter row blocks: 88 points; 136 in all).
  // y3: 3-d with stride 2, lhs dilation (holes), padding on every side and
  // a reversed window; 132 points, sharded by output features.
  const std::string ops = R"(
    {"op": "convolution", "operands": ["x", "w"], "result": "y2",
     )" + kConvNhwc + R"(,
     "window_strides": [2, 2], "padding": [[2, 1], [1, 2]], "rhs_dilation": [2, 1]},
    {"op": "convolution", "operands": ["s", "k"], "result": "y1",
     )" + kConvNwc + R"(, "padding": [[3, 4]]},
    {"op": "convolution", "operands": ["v", "u"], "result": "y3",
     "input_batch_dimension": 0, "input_feature_dimension": 4, "input_spatial_dimensions": [1, 2, 3],
     "kernel_input_feature_dimension": 3, "kernel_output_feature_dimension": 4,
     "kernel_spatial_dimensions": [0, 1, 2], "output_batch_dimension": 0,
     "output_feature_dimension": 4, "output_spatial_dimensions": [1, 2, 3],
     "window_strides": [2, 1, 2], "lhs_dilation": [1, 2, 1], "padding": [[1, 1], [1, 1], [1, 1]],
     "window_reversal": [true, false, true]})";
  const std::string inputs =
      R"({"name": "x", "type": "tensor<3x23x19x17xf32>"}, {"name": "w", "type": "tensor<3x3x17x40xf32>"},
         {"name": "s", "type": "tensor<2x760x2xf32>"}, {"name": "k", "type": "tensor<700x2x3xf32>"},
         {"name": "v", "type": "tensor<1x5x6x7x3xf32>"},
         {"name": "u", "type": "tensor<2x3x3x3x10xf32>", "sharding": "<@m, [{}, {}, {}, {}, {y}]>"})";
  const std::string outputs = R"({"value": "y2"}, {"value": "y1"}, {"value": "y3"})";
  Graph graph = loadVerified(graphOn2x2("lowered_edges", inputs, ops, outputs));
  CHECK(checkCompiledEqualsInterpreter(graph, 29) == "");
  CHECK(countOccurrences(generatedSource(graphOn2x2("lowered_edges", inputs, ops, outputs)),
                         "convolutionLowered<") >= 3);
}
