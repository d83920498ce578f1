// chlo.ragged_dot (jax.lax.ragged_dot) as StableHLO's legalization writes it:
// mode 1 (the ragged dim an lhs free dim: each row times its group's rhs,
// rows past the groups zero), mode 2 (the ragged dim contracting: the
// groups' partial products stacked), mode 3 (a batch dim: a plain dot).
// The StableHLO interpreter's own mode 1 tests run in the corpus
// (test/interpret_corpus, chlo__ragged_dot); these add the other modes, i32
// group sizes, empty groups and the errors.
#include <doctest/doctest.h>

#include "compiler/ir/Diagnostic.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;

namespace {

using testing::evalFloats;
using testing::importErrorOf;
using testing::importVerified;

/// A module whose @main applies one ragged_dot to constants.
std::string raggedDot(const std::string &lhs, const std::string &rhs, const std::string &sizes,
                      const std::string &dims, const std::string &types) {
  return R"(func.func @main() -> tensor<)" + types.substr(types.rfind('<') + 1) + R"( {
  %lhs = stablehlo.constant )" +
         lhs + R"(
  %rhs = stablehlo.constant )" +
         rhs + R"(
  %group_sizes = stablehlo.constant )" +
         sizes + R"(
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<)" +
         dims +
         R"(>}> {precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]} : )" +
         types + R"(
  return %0 : tensor<)" +
         types.substr(types.rfind('<') + 1) + R"(
})";
}

} // namespace

TEST_CASE("ragged_dot mode 1: each row times its group's rhs, i32 sizes, rows past the groups 0") {
  // Row 0 is group 0's (identity), rows 1-2 group 1's (swap), row 3 none.
  const std::string text =
      raggedDot("dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>",
                "dense<[[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]]> : tensor<2x2x2xf32>",
                "dense<[1, 2]> : tensor<2xi32>",
                "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
                "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
                "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]",
                "(tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xi32>) -> tensor<4x2xf32>");
  CHECK(evalFloats(text) == std::vector<double>{1, 2, 4, 3, 6, 5, 0, 0});
  // The ops it ran say where they came from.
  Graph graph = importVerified(text);
  bool inlined = false;
  for (const Op &op : graph.main.ops)
    inlined = inlined || metadataString(op.metadata, kInlinedFromKey) == "@chlo.ragged_dot.1";
  CHECK(inlined);
}

TEST_CASE("ragged_dot mode 2: the ragged dim contracting, one product per group, an empty one") {
  // Groups of k: {0, 1}, {}, {2}. The dimension numbers as JAX prints them
  // (empty lists left out).
  const std::string text =
      raggedDot("dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>",
                "dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>",
                "dense<[2, 0, 1]> : tensor<3xi64>",
                "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], "
                "lhs_ragged_dimensions = [1]",
                "(tensor<2x3xf32>, tensor<3x2xf32>, tensor<3xi64>) -> tensor<3x2x2xf32>");
  CHECK(evalFloats(text) == std::vector<double>{1, 2, 4, 5, 0, 0, 0, 0, 3, 3, 6, 6});
}

TEST_CASE("ragged_dot mode 3: the ragged dim a batch dim is a batched dot") {
  const std::string text =
      raggedDot("dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>",
                "dense<[[[1.0], [1.0]], [[2.0], [0.0]]]> : tensor<2x2x1xf32>",
                "dense<[1, 1]> : tensor<2xi64>",
                "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], "
                "lhs_ragged_dimensions = [0], rhs_group_dimensions = []",
                "(tensor<2x1x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>");
  CHECK(evalFloats(text) == std::vector<double>{3, 6});
}

TEST_CASE("ragged_dot errors name the op") {
  const std::string dims = "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
                           "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
                           "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]";
  auto errorOf = [](const std::string &dims, const std::string &types) {
    return importErrorOf(
        R"(func.func @main(%a: tensor<4x2xf32>, %b: tensor<5000x2x2xf32>, %s: tensor<5000xi32>) -> tensor<4x2xf32> {
  %0 = "chlo.ragged_dot"(%a, %b, %s) {ragged_dot_dimension_numbers = #chlo.ragged_dot<)" +
        dims + ">} : " + types + R"(
  return %0 : tensor<4x2xf32>
})");
  };
  const std::string types =
      "(tensor<4x2xf32>, tensor<5000x2x2xf32>, tensor<5000xi32>) -> tensor<4x2xf32>";
  // More groups than the decomposition takes (one dot each), refused
  // before it is made.
  auto [place, message] = errorOf(dims, types);
  CHECK(place == "2:3");
  CHECK(message ==
        "chlo.ragged_dot has 5000 groups; at most 4096 are supported (one dot per group)");
  // Mode 1 needs the rhs's group dim; the fields are StableHLO's.
  CHECK(errorOf("lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
                "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
                "lhs_ragged_dimensions = [0], rhs_group_dimensions = []",
                types)
            .second == "chlo.ragged_dot with a ragged lhs free dim needs one rhs group dimension");
  CHECK(errorOf("lhs_batching_dims = []", types).second ==
        "ragged_dot_dimension_numbers: unknown field 'lhs_batching_dims' in "
        "'lhs_batching_dims = []'");
  CHECK(errorOf(dims, "(tensor<4x2xf32>, tensor<5000x2x2xf32>, tensor<5000xf32>) -> "
                      "tensor<4x2xf32>")
            .second.starts_with("chlo.ragged_dot needs integer group_sizes"));
}
