// The window ops as JAX and StableHLO's interpreter tests write them:
// reduce_window (pooling, cumsum), select_and_scatter and convolution. The
// values are those of openxla/stablehlo stablehlo/tests/interpret/
// {reduce_window,select_and_scatter,convolution}.mlir and of the spec's
// examples; the forms round trip through the writer, pretty and generic.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/verify/Verifier.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;
using namespace shardgen::mlir;

namespace {

Graph importWindowGraph(const std::string &text) {
  ImportedGraph imported = importMlir(text);
  verifyGraph(imported.graph);
  return std::move(imported.graph);
}

/// The outputs of `text`'s @main (no inputs), as integers.
std::vector<std::vector<int64_t>> evalInts(const std::string &text) {
  Graph graph = importWindowGraph(text);
  std::vector<std::vector<int64_t>> out;
  for (const Literal &result : evaluate(graph, {})) {
    out.emplace_back();
    for (int64_t i = 0; i < result.numElements(); ++i)
      out.back().push_back(result.getInt(i));
  }
  return out;
}

using testing::evalFloats;

/// The place ("line:col") and message of the error importing and verifying
/// `text` gives.
std::pair<std::string, std::string> windowErrorOf(const std::string &text) {
  ImportedGraph imported;
  try {
    imported = importMlir(text);
  } catch (const GraphError &error) {
    return {error.pointer(), error.what()};
  }
  try {
    verifyGraph(imported.graph);
  } catch (const GraphError &error) {
    return {imported.places.place(error.pointer()), error.what()};
  }
  FAIL("no error");
  return {};
}

/// Graph equality after MLIR's normalization (every result type stated).
void checkWindowRoundTrip(const std::string &text) {
  Graph graph = importWindowGraph(text);
  testing::normalizeForMlir(graph);
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    CAPTURE(static_cast<int>(form));
    const std::string written = writeMlir(graph, form);
    Graph back = importWindowGraph(written);
    testing::normalizeForMlir(back);
    CHECK(writeMlir(back, form) == written);
  }
}

const char *kAddBody = R"(({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }))";

} // namespace

TEST_CASE("reduce_window: the interpreter tests (base and window dilations, padding, strides)") {
  // reduce_window.mlir @reduce_window (the spec's example) and
  // @reduce_window_issue_1662: padding and the holes of base dilation take
  // the init value.
  auto text = [](const std::string &window, const std::string &result) {
    return R"(
func.func @main() -> tensor<)" +
           result + R"(> {
  %input = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.reduce_window"(%input, %init_value) )" +
           std::string(kAddBody) + R"( {
    base_dilations = array<i64: 2, 1>,
    padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>,
    window_dilations = array<i64: 3, 1>,
    window_dimensions = array<i64: )" +
           window + R"(>,
    window_strides = array<i64: 4, 1>
  } : (tensor<3x2xi64>, tensor<i64>) -> tensor<)" +
           result + R"(>
  func.return %result : tensor<)" +
           result + R"(>
})";
  };
  const std::string input = text("2, 1", "2x2xi64");
  CHECK(evalInts(input) == std::vector<std::vector<int64_t>>{{0, 0, 3, 4}});
  CHECK(evalInts(text("3, 1", "1x2xi64")) == std::vector<std::vector<int64_t>>{{5, 6}});
  checkWindowRoundTrip(input);
}

TEST_CASE("reduce_window as JAX prints it: max pooling, average pooling, cumsum") {
  // jax.lax.reduce_window(x, -inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID'):
  // properties in <{...}>, padding as a splat.
  const std::string maxPool = R"(
func.func @main() -> tensor<1x2x2x1xf32> {
  %x = stablehlo.constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]],
                                  [[9.0], [-1.0], [0.5], [0.25]], [[-2.0], [-3.0], [-4.0], [0x7FC00000]]]]> : tensor<1x4x4x1xf32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %cst) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
})";
  std::vector<double> pooled = evalFloats(maxPool);
  REQUIRE(pooled.size() == 4);
  CHECK(pooled[0] == 6);
  CHECK(pooled[1] == 8);
  CHECK(pooled[2] == 9);
  CHECK(std::isnan(pooled[3])); // maximum propagates NaN
  checkWindowRoundTrip(maxPool);

  // Average pooling, 'SAME': a sum over a padded 3x3 window (padding adds
  // the init value 0), then a divide.
  const std::string avgPool = R"(
func.func @main() -> tensor<1x2x2x1xf32> {
  %x = stablehlo.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %cst) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<1x3x3x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %cst_0 = stablehlo.constant dense<9.000000e+00> : tensor<1x2x2x1xf32>
  %1 = stablehlo.divide %0, %cst_0 : tensor<1x2x2x1xf32>
  return %1 : tensor<1x2x2x1xf32>
})";
  CHECK(evalFloats(avgPool) == std::vector<double>{12.0f / 9, 16.0f / 9, 24.0f / 9, 28.0f / 9});

  // jnp.cumsum(x, axis=1) on CPU: a window of the whole axis, padded n-1
  // before it.
  const std::string cumsum = R"(
func.func @main() -> tensor<2x4xi32> {
  %x = stablehlo.constant dense<[[1, 2, 3, 4], [10, -20, 30, -40]]> : tensor<2x4xi32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [3, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 4>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
    %1 = stablehlo.add %arg1, %arg2 : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }) : (tensor<2x4xi32>, tensor<i32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
})";
  CHECK(evalInts(cumsum) == std::vector<std::vector<int64_t>>{{1, 3, 6, 10, 10, -10, 20, -20}});
  checkWindowRoundTrip(cumsum);
}

TEST_CASE("reduce_window: an init value that is no identity counts once per padded element") {
  // Windows of 3 over [5, 7] padded by 1 on both sides with init 100 and
  // add: the init, then each element of the window (padding reads 100).
  const std::string text = R"(
func.func @main() -> tensor<2xi64> {
  %x = stablehlo.constant dense<[5, 7]> : tensor<2xi64>
  %init = stablehlo.constant dense<100> : tensor<i64>
  %0 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %1 = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
})";
  CHECK(evalInts(text) == std::vector<std::vector<int64_t>>{{212, 212}});
}

TEST_CASE("select_and_scatter: the interpreter test (the max-pool gradient's form)") {
  // select_and_scatter.mlir @select_and_scatter_op_test: GE keeps the first
  // of equal elements; each window's source value adds at its selection.
  const std::string text = R"(
func.func @main() -> tensor<4x2xi64> {
  %operand = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>
  %source = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.select_and_scatter"(%operand, %source, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.compare GE, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 2, 1>,
    padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  func.return %result : tensor<4x2xi64>
})";
  CHECK(evalInts(text) == std::vector<std::vector<int64_t>>{{0, 0, 0, 0, 5, 14, 7, 0}});
  checkWindowRoundTrip(text);
}

namespace {

/// convolution.mlir's lhs, a 1x4x4x1 image, and a kernel of ones.
std::string convolution(const std::string &numbers, const std::string &window,
                        const std::string &groups, const std::string &kernelType,
                        const std::string &resultType, const std::string &element = "i64") {
  const std::string lhsType = "tensor<1x4x4x1x" + element + ">";
  return R"(
func.func @main() -> tensor<)" +
         resultType + R"(> {
  %lhs = stablehlo.constant dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]],
                                    [[10], [11], [14], [15]], [[12], [13], [16], [17]]]]> : )" +
         lhsType + R"(
  %rhs = stablehlo.constant dense<1> : tensor<)" +
         kernelType + R"(>
  %result = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = )" +
         numbers + R"(,
    window = {)" +
         window + R"(} {
      batch_group_count = )" +
         groups + R"(,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    }
  : ()" + lhsType +
         ", tensor<" + kernelType + ">) -> tensor<" + resultType + R"(>
  func.return %result : tensor<)" +
         resultType + R"(>
})";
}

} // namespace

TEST_CASE("convolution: the interpreter tests (lhs dilation, padding, batch and feature groups)") {
  const std::string nhwc = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]";
  const std::string ungrouped = "1 : i64, feature_group_count = 1 : i64";
  // @convolution_op_test_si64
  CHECK(evalInts(convolution(nhwc, "stride = [4, 4], lhs_dilate = [2, 2]", ungrouped, "3x3x1x1xi64",
                             "1x2x2x1xi64")) ==
        std::vector<std::vector<int64_t>>{{10, 26, 46, 62}});
  // @convolution_op_test_si8: i8 operands, an i32 result (widened first).
  std::string si8 = convolution(nhwc, "stride = [4, 4], lhs_dilate = [2, 2]", ungrouped,
                                "3x3x1x1xi8", "1x2x2x1xi32", "i8");
  si8.replace(si8.find("dense<1>"), 8, "dense<10>");
  CHECK(evalInts(si8) == std::vector<std::vector<int64_t>>{{100, 260, 460, 620}});
  // @convolution_op_test_padding
  CHECK(evalInts(convolution(nhwc, "stride = [4, 4], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]",
                             ungrouped, "3x3x1x1xi64", "1x2x2x1xi64")) ==
        std::vector<std::vector<int64_t>>{{1, 5, 10, 14}});
  // @convolution_batch_group_count_4
  CHECK(evalInts(convolution(
            "[0, b, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "stride = [4, 4], lhs_dilate = [2, 2]",
            "4 : i64, feature_group_count = 1 : i64", "1x2x1x4xi64", "1x1x2x4xi64")) ==
        std::vector<std::vector<int64_t>>{{1, 3, 10, 12, 5, 7, 14, 16}});
  // @convolution_feature_group_count_2
  CHECK(evalInts(convolution(
            "[b, 0, f, 1]x[0, i, 1, o]->[b, 0, 1, f]", "stride = [4, 4], lhs_dilate = [2, 2]",
            "1 : i64, feature_group_count = 2 : i64", "1x2x1x4xi64", "1x2x1x4xi64")) ==
        std::vector<std::vector<int64_t>>{{3, 3, 11, 11, 21, 21, 29, 29}});
}

TEST_CASE("convolution: window reversal and rhs dilation") {
  // A 1-d convolution of [1, 2, 3, 4, 5] with the kernel [1, 10]: reversed,
  // the kernel is [10, 1]; dilated by 2, its taps are two apart.
  auto conv1d = [](const std::string &window, const std::string &resultType) {
    return R"(
func.func @main() -> tensor<)" +
           resultType + R"(> {
  %x = stablehlo.constant dense<[[[1], [2], [3], [4], [5]]]> : tensor<1x5x1xi64>
  %k = stablehlo.constant dense<[[[1]], [[10]]]> : tensor<2x1x1xi64>
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {)" +
           window +
           R"(} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xi64>, tensor<2x1x1xi64>) -> tensor<)" +
           resultType + R"(>
  return %0 : tensor<)" +
           resultType + R"(>
})";
  };
  CHECK(evalInts(conv1d("stride = [1]", "1x4x1xi64")) ==
        std::vector<std::vector<int64_t>>{{21, 32, 43, 54}});
  CHECK(evalInts(conv1d("reverse = [true]", "1x4x1xi64")) ==
        std::vector<std::vector<int64_t>>{{12, 23, 34, 45}});
  CHECK(evalInts(conv1d("rhs_dilate = [2]", "1x3x1xi64")) ==
        std::vector<std::vector<int64_t>>{{31, 42, 53}});
  checkWindowRoundTrip(conv1d("stride = [1], pad = [[1, 0]], reverse = [true]", "1x5x1xi64"));
}

TEST_CASE("convolution: padding is a zero that multiplies its weight (0 * inf is NaN)") {
  // [1, 2] with the kernel [1, inf], one position of padding past the end:
  // 1 + 2 inf = inf, then 2 + 0 inf = NaN, as the spec's dot of the padded
  // windows gives (not 2: the padding is no missing term).
  const std::string text = R"(
func.func @main() -> tensor<1x2x1xf32> {
  %x = stablehlo.constant dense<[[[1.0], [2.0]]]> : tensor<1x2x1xf32>
  %k = stablehlo.constant dense<[[[1.0]], [[0x7F800000]]]> : tensor<2x1x1xf32>
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x1xf32>, tensor<2x1x1xf32>) -> tensor<1x2x1xf32>
  return %0 : tensor<1x2x1xf32>
})";
  const std::vector<double> y = evalFloats(text);
  REQUIRE(y.size() == 2);
  CHECK(y[0] == std::numeric_limits<double>::infinity());
  CHECK(std::isnan(y[1]));
}

TEST_CASE("convolution of complex values: products and sums as complex numbers") {
  // [1+2i, 3-i] with the kernel [i, 1], the second tap past the end padded:
  // (1+2i) i + (3-i) = 1 + 0i, (3-i) i + 0 = 1 + 3i.
  const std::string text = R"(
func.func @main() -> tensor<1x4x1xf32> {
  %x = stablehlo.constant dense<[[[(1.0,2.0)], [(3.0,-1.0)]]]> : tensor<1x2x1xcomplex<f32>>
  %k = stablehlo.constant dense<[[[(0.0,1.0)]], [[(1.0,0.0)]]]> : tensor<2x1x1xcomplex<f32>>
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x1xcomplex<f32>>, tensor<2x1x1xcomplex<f32>>) -> tensor<1x2x1xcomplex<f32>>
  %1 = stablehlo.real %0 : (tensor<1x2x1xcomplex<f32>>) -> tensor<1x2x1xf32>
  %2 = stablehlo.imag %0 : (tensor<1x2x1xcomplex<f32>>) -> tensor<1x2x1xf32>
  %3 = stablehlo.concatenate %1, %2, dim = 1 : (tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> tensor<1x4x1xf32>
  return %3 : tensor<1x4x1xf32>
})";
  CHECK(evalFloats(text) == std::vector<double>{1, 1, 0, 3});
}

TEST_CASE("convolution: JAX's pretty form and the generic form read the same") {
  const std::string pretty = R"(
func.func @main(%x: tensor<8x6x6x4xf32>, %w: tensor<3x3x4x16xf32>) -> tensor<8x3x3x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x4xf32>, tensor<3x3x4x16xf32>) -> tensor<8x3x3x16xf32>
  return %0 : tensor<8x3x3x16xf32>
})";
  const std::string generic = R"(
func.func @main(%x: tensor<8x6x6x4xf32>, %w: tensor<3x3x4x16xf32>) -> tensor<8x3x3x16xf32> {
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 2>}> : (tensor<8x6x6x4xf32>, tensor<3x3x4x16xf32>) -> tensor<8x3x3x16xf32>
  return %0 : tensor<8x3x3x16xf32>
})";
  Graph a = importWindowGraph(pretty), b = importWindowGraph(generic);
  const auto &conv = a.main.ops[0].attr<ConvolutionAttrs>();
  CHECK(conv.inputBatchDimension == 0);
  CHECK(conv.inputFeatureDimension == 3);
  CHECK(conv.inputSpatialDimensions == std::vector<int64_t>{1, 2});
  CHECK(conv.kernelInputFeatureDimension == 2);
  CHECK(conv.kernelOutputFeatureDimension == 3);
  CHECK(conv.windowStrides == std::vector<int64_t>{2, 2});
  CHECK(writeMlir(a, MlirForm::Generic) == writeMlir(b, MlirForm::Generic));
  const std::string written = writeMlir(a, MlirForm::Pretty);
  CHECK(written.find("stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, "
                     "0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]") !=
        std::string::npos);
  checkWindowRoundTrip(pretty);
}

TEST_CASE("window ops: errors name the place") {
  const std::string badWindow = R"(
func.func @main(%x: tensor<4x4xf32>, %c: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})";
  auto [place, message] = windowErrorOf(badWindow);
  CHECK(place == "3:64"); // the attribute's value
  CHECK(message.find("entries must be positive, got 0") != std::string::npos);

  const std::string badBody = R"(
func.func @main(%x: tensor<4xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})";
  std::tie(place, message) = windowErrorOf(badBody);
  CHECK(place == "4:29"); // the argument's type
  CHECK(message.find("body argument has type tensor<i32>, expected tensor<f32>") !=
        std::string::npos);

  const std::string badSource = R"(
func.func @main(%x: tensor<4xf32>, %s: tensor<3xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})";
  std::tie(place, message) = windowErrorOf(badSource);
  CHECK(place == "3:3");
  CHECK(message.find("requires a source of one element per window, tensor<2xf32>, got "
                     "tensor<3xf32>") != std::string::npos);

  const std::string badConv = R"(
func.func @main(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x2x8xf32>) -> tensor<1x2x2x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x2x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
})";
  std::tie(place, message) = windowErrorOf(badConv);
  CHECK(place == "3:3");
  CHECK(message.find("requires a kernel input feature size of 3") != std::string::npos);

  auto [labelPlace, labelMessage] = windowErrorOf(R"(
func.func @main(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x2x2x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, q, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
})");
  CHECK(labelPlace == "3:52");
  CHECK(labelMessage.find("unexpected dimension label 'q'") != std::string::npos);
}

TEST_CASE("reduce_window of two inputs: max pooling with the argmax") {
  // Windows of 2, stride 2, one of padding at the end (reads the inits);
  // the body keeps the larger value and its index, the smaller index on
  // ties.
  const std::string text = R"(
func.func @main() -> (tensor<4xf32>, tensor<4xi32>) {
  %x = stablehlo.constant dense<[3.0, 1.0, 4.0, 4.0, 5.0, 9.0, -7.0]> : tensor<7xf32>
  %i = stablehlo.iota dim = 0 : tensor<7xi32>
  %lowest = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %none = stablehlo.constant dense<-1> : tensor<i32>
  %0:2 = "stablehlo.reduce_window"(%x, %i, %lowest, %none) <{padding = dense<[[0, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }) : (tensor<7xf32>, tensor<7xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
})";
  Graph graph = importWindowGraph(text);
  std::vector<Literal> out = evaluate(graph, {});
  REQUIRE(out.size() == 2);
  std::vector<double> values;
  std::vector<int64_t> indices;
  for (int64_t k = 0; k < 4; ++k) {
    values.push_back(out[0].getFloat(k));
    indices.push_back(out[1].getInt(k));
  }
  CHECK(values == std::vector<double>{3, 4, 9, -7});
  CHECK(indices == std::vector<int64_t>{0, 2, 5, 6});
  checkWindowRoundTrip(text);
}
