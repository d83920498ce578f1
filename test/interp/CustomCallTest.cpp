// custom_call through a resolver, on whole tensors and on local shards, and
// the error for a target that cannot be found.

#include <doctest/doctest.h>

#include <cstring>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

extern "C" {

/// result0 = operand0 + 1 (f32), result1[0] = 10 * shape[0] + rank (i32).
static void addOneAndDescribe(shardgen_buffer *results, int64_t numResults,
                              const shardgen_buffer *operands, int64_t numOperands) {
  if (numResults != 2 || numOperands != 1 || operands[0].element_type != SHARDGEN_F32 ||
      results[0].element_type != SHARDGEN_F32 || results[1].element_type != SHARDGEN_I32)
    return; // leave zeros: the test sees the mismatch
  int64_t n = 1;
  for (int64_t d = 0; d < operands[0].rank; ++d)
    n *= operands[0].shape[d];
  const float *in = static_cast<const float *>(operands[0].data);
  float *out = static_cast<float *>(results[0].data);
  for (int64_t i = 0; i < n; ++i)
    out[i] = in[i] + 1;
  static_cast<int32_t *>(results[1].data)[0] =
      static_cast<int32_t>(10 * operands[0].shape[0] + operands[0].rank);
}
}

namespace {

EvalOptions resolverFor(const std::string &name, shardgen_custom_call_fn function) {
  EvalOptions options;
  options.customCallResolver = [name, function](const std::string &target) {
    return target == name ? function : nullptr;
  };
  return options;
}

} // namespace

TEST_CASE("custom_call runs the resolved function on whole tensors") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "a", "type": "tensor<3x2xf32>"}],
    "ops": [{"op": "custom_call", "operands": ["a"], "results": ["b", "info"],
             "types": ["tensor<3x2xf32>", "tensor<1xi32>"], "call_target_name": "describe"}],
    "outputs": [{"value": "b"}, {"value": "info"}]})");
  std::vector<Literal> out = evaluate(graph, {literal("tensor<3x2xf32>", {1, 2, 3, 4, 5, 6})},
                                      resolverFor("describe", addOneAndDescribe));
  CHECK(floats(out[0]) == std::vector<double>{2, 3, 4, 5, 6, 7});
  CHECK(ints(out[1]) == std::vector<int64_t>{32});
}

TEST_CASE("custom_call inside a manual_computation runs per device on local shards") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4x2xf32>"}],
    "ops": [{"op": "manual_computation", "operands": ["a"], "results": ["b", "info"],
             "in_shardings": ["<@m, [{x}, {}]>"],
             "out_shardings": ["<@m, [{x}, {}]>", "<@m, [{x}]>"], "manual_axes": ["x"],
             "body": {"args": [{"name": "al", "type": "tensor<2x2xf32>"}],
               "ops": [{"op": "custom_call", "operands": ["al"], "results": ["bl", "il"],
                        "types": ["tensor<2x2xf32>", "tensor<1xi32>"],
                        "call_target_name": "describe"}],
               "return": ["bl", "il"]}}],
    "outputs": [{"value": "b"}, {"value": "info"}]})");
  std::vector<Literal> out = evaluate(graph, {literal("tensor<4x2xf32>", {1, 2, 3, 4, 5, 6, 7, 8})},
                                      resolverFor("describe", addOneAndDescribe));
  CHECK(floats(out[0]) == std::vector<double>{2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(ints(out[1]) == std::vector<int64_t>{22, 22}); // each device saw a 2x2 shard
}

TEST_CASE("custom_call fails at the op unless the resolver has its target") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "a", "type": "tensor<2xf32>"}],
    "ops": [{"op": "negate", "operands": ["a"], "result": "n"},
            {"op": "custom_call", "operands": ["n"], "result": "b", "type": "tensor<2xf32>",
             "call_target_name": "memmove_like"}],
    "outputs": [{"value": "b"}]})");
  // No resolver: nothing is looked up in the process. A resolver without it: the same.
  for (const EvalOptions &options : {EvalOptions{}, resolverFor("describe", addOneAndDescribe)}) {
    try {
      evaluate(graph, {literal("tensor<2xf32>", {1, 2})}, options);
      FAIL("expected a GraphError");
    } catch (const GraphError &error) {
      CHECK(error.pointer() == "/ops/1");
      CHECK(std::string(error.what()) == "custom_call target \"memmove_like\" is not available: "
                                         "no function of that name was registered");
    }
  }
}
