// What applyPropagation writes: a closed sharding with `_origin` on every
// input, op result, output and body value; propagating that again changes
// nothing; every written sharding passes the verifier.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test/propagate/PropagationTestUtil.h"
#include "test/support/TextFile.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string propagateText(const std::string &json, PropagationStrategy strategy) {
  Graph graph = loadGraph(json);
  PropagationResult result = propagateShardings(graph, strategy);
  applyPropagation(graph, result);
  return writeGraph(graph);
}

/// Every sharding slot of the written graph passes verifySharding (a
/// distributed value has its distribution instead).
void checkAllShardingsVerify(const Graph &graph) {
  for (const auto &arg : graph.main.args) {
    REQUIRE((arg.sharding || arg.distribution));
    if (arg.sharding)
      verifySharding(*arg.sharding, graph.type(arg.value), graph, arg.pointer);
  }
  for (const auto &result : graph.main.results) {
    REQUIRE((result.sharding || result.distribution));
    if (result.sharding)
      verifySharding(*result.sharding, graph.type(result.value), graph, result.pointer);
  }
  walkOps(graph.main, [&](const Op &op) {
    REQUIRE(op.shardings.size() == op.results.size());
    for (size_t j = 0; j < op.results.size(); ++j) {
      if (j < op.distributions.size() && op.distributions[j])
        continue;
      REQUIRE(op.shardings[j]);
      if (op.kind != OpKind::ManualComputation)
        verifySharding(*op.shardings[j], graph.type(op.results[j]), graph, op.pointer);
    }
  });
}

} // namespace

TEST_CASE("applyPropagation gives slots with equal shardings one shared instance") {
  Graph graph = loadGraph(
      graphJson(R"({"name": "x", "size": 2})",
                R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {}]>"},
         {"name": "b", "type": "tensor<8x8xf32>"})",
                R"({"op": "add", "operands": ["a", "b"], "result": "c"},
         {"op": "negate", "operands": ["c"], "result": "d"},
         {"op": "transpose", "operands": ["d"], "result": "e", "permutation": [1, 0]})",
                R"({"value": "e"})"));
  PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
  applyPropagation(graph, std::move(result));
  const TensorSharding *shared = graph.main.args[0].sharding.get();
  REQUIRE(shared);
  CHECK(printSharding(*shared) == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(graph.main.args[1].sharding.get() == shared); // b, c and d: as a
  CHECK(graph.main.ops[0].shardings[0].get() == shared);
  CHECK(graph.main.ops[1].shardings[0].get() == shared);
  REQUIRE(graph.main.ops[2].shardings[0]); // e: transposed, another instance
  CHECK(printSharding(*graph.main.ops[2].shardings[0]) == R"(<@mesh, [{}, {"x"}]>)");
  CHECK(graph.main.ops[2].shardings[0].get() != shared);
  CHECK(graph.main.results[0].sharding.get() == graph.main.ops[2].shardings[0].get());
}

TEST_CASE("propagate writes closed shardings with origins, and is idempotent") {
  std::string json =
      graphJson(R"({"name": "x", "size": 2}, {"name": "y", "size": 2})",
                R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x, ?}, {?}p1]>"},
         {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {?}], replicated={y}>"},
         {"name": "w", "type": "tensor<4xf32>", "sharding": "<@mesh, [{y}]>"})",
                R"({"op": "add", "operands": ["a", "b"], "result": "c"},
         {"op": "sharding_constraint", "operands": ["c"], "result": "d", "sharding": "<@mesh, [{x}, {y}]>"},
         {"op": "negate", "operands": ["d"], "result": "e"})",
                R"({"value": "e", "sharding": "<@mesh, [{?}, {y}]>"})");
  std::string once = propagateText(json, PropagationStrategy::UserPriority);
  CHECK(once.find(R"("sharding": "<@mesh, [{\"x\"}, {}], replicated={\"y\"}>")") !=
        std::string::npos);
  CHECK(once.find(R"("_origin": "op:/ops/0")") != std::string::npos);
  CHECK(once.find(R"("_origin": "user:/inputs/2/sharding")") != std::string::npos);
  CHECK(once.find(R"("_origin": "constraint:/ops/1")") != std::string::npos);
  CHECK(once.find('?') == std::string::npos);
  CHECK(once.find("p1") == std::string::npos);
  Graph written = loadGraph(once);
  checkAllShardingsVerify(written);
  CHECK(propagateText(once, PropagationStrategy::UserPriority) == once);
}

TEST_CASE("every sample graph: all values sharded, shardings verify, idempotent, all strategies") {
  std::filesystem::path samples = std::filesystem::path(SHARDGEN_SOURCE_DIR) / "samples";
  int count = 0;
  for (const auto &entry : std::filesystem::directory_iterator(samples)) {
    if (entry.path().extension() != ".json")
      continue;
    std::string json = readFile(entry.path());
    for (auto strategy : {PropagationStrategy::Basic, PropagationStrategy::Aggressive,
                          PropagationStrategy::OpPriority, PropagationStrategy::UserPriority}) {
      CAPTURE(entry.path().filename().string());
      CAPTURE(strategyName(strategy));
      std::string once = propagateText(json, strategy);
      Graph written = loadGraph(once);
      checkAllShardingsVerify(written);
      CHECK(propagateText(once, strategy) == once);
    }
    ++count;
  }
  CHECK(count > 0);
}

TEST_CASE("propagate keeps `_` keys of mesh axes and distributions where the file wrote them") {
  std::string json = R"({
  "format": "shardgen-graph", "version": 1, "name": "m",
  "meshes": [{"name": "cores", "axes": [{"name": "c", "size": 2, "_axis_note": [1, 2]}]}],
  "inputs": [{"name": "z", "type": "tensor<4x4xf32>",
              "distribution": {"mesh": "cores", "shard_shape": [2, 4], "_d": "input's"}}],
  "ops": [{"op": "abs", "operands": ["z"], "result": "a"},
          {"op": "distribute", "operands": ["a"], "result": "b",
           "distribution": {"mesh": "cores", "shard_shape": [4, 2], "_d": "op's"}}],
  "outputs": [{"value": "b"}]
})";
  std::string once = propagateText(json, PropagationStrategy::UserPriority);
  Graph written = loadGraph(once);
  REQUIRE(written.meshes[0].axisMetadata.size() == 1);
  CHECK(written.meshes[0].axisMetadata[0] == Metadata{{"_axis_note", "[1,2]"}});
  REQUIRE(written.main.args[0].distribution);
  CHECK(written.main.args[0].distribution->metadata == Metadata{{"_d", "\"input's\""}});
  REQUIRE(written.main.ops.size() == 2);
  // `a` inherits the input's distribution, not its `_` keys.
  REQUIRE(written.main.ops[0].distributions[0]);
  CHECK(written.main.ops[0].distributions[0]->metadata.empty());
  REQUIRE(written.main.ops[1].distributions[0]);
  CHECK(written.main.ops[1].distributions[0]->metadata == Metadata{{"_d", "\"op's\""}});
  REQUIRE(written.main.results[0].distribution);
  CHECK(written.main.results[0].distribution->metadata.empty());
  CHECK(propagateText(once, PropagationStrategy::UserPriority) == once);
}
