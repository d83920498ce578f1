// top_k with its last dim sharded: each device takes the top k of its piece
// (global indices), the candidates are gathered (k per piece instead of the
// row) and merged by a second top_k; ties resolve to the lower index and NaN
// sorts as the op's kernel orders it, exactly as unsharded.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "compiler/interp/Interpreter.h"
#include "compiler/partition/CommunicationManifest.h"
#include "test/partition/PartitionTestUtil.h"
#include "test/partition/SpmdSimulator.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// top_k (k of a row of 32) of x on mesh [x=a, y=b].
std::string topKGraph(int64_t a, int64_t b, const std::string &sharding, int64_t k) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "topk",
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": )" +
         std::to_string(a) + R"(}, {"name": "y", "size": )" + std::to_string(b) + R"(}]}],
    "inputs": [{"name": "v", "type": "tensor<4x32xf32>", "sharding": "<@mesh, )" +
         sharding +
         R"(>"}],
    "ops": [{"op": "top_k", "operands": ["v"], "results": ["values", "indices"], "k": )" +
         std::to_string(k) + R"(}],
    "outputs": [{"value": "values"}, {"value": "indices"}]})";
}

/// Rows of ties (values 0..2), NaNs of both signs, infinities and -0.0.
Literal tiedRows() {
  Literal v(TensorType{ElementType::F32, {4, 32}});
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < 128; ++i)
    v.setFloat(i, static_cast<double>((i * 7 + i / 32) % 3));
  // Row 1: NaN in two pieces; row 2: -NaN, infinities; row 3: signed zeros.
  for (int64_t i : {33, 50, 62})
    v.setFloat(i, nan);
  v.setFloat(70, -nan);
  v.setFloat(71, inf);
  v.setFloat(90, -inf);
  v.setFloat(93, inf);
  for (int64_t i = 96; i < 128; i += 3)
    v.setFloat(i, i % 2 == 0 ? 0.0 : -0.0);
  return v;
}

} // namespace

TEST_CASE("top_k of a sharded row: local top k, candidates gathered, merged exactly") {
  for (auto [a, b, sharding, shards] :
       {std::tuple{2, 2, "[{}, {y}]", 2}, std::tuple{2, 2, "[{x}, {y}]", 2},
        std::tuple{2, 2, "[{}, {x, y}]", 4}, std::tuple{1, 4, "[{}, {y}]", 4}}) {
    for (int64_t k : {1, 2, 3}) {
      CAPTURE(sharding);
      CAPTURE(k);
      Graph graph = loadGraph(topKGraph(a, b, sharding, k));
      propagateInPlace(graph);
      SpmdProgram program = partitionVerified(graph);
      // Only candidates move: k per piece, a value and an i32 index each
      // (then the outputs, replicated here, need nothing more).
      const CommunicationManifest manifest = computeManifest(program);
      int64_t received = 0;
      for (const CollectiveRecord &record : manifest.collectives) {
        CHECK(record.kind == StepKind::AllGather);
        for (const DeviceTraffic &traffic : record.traffic)
          received += traffic.received;
      }
      // (The outputs keep the rows' sharding propagation gives them.)
      const int64_t rows = std::string(sharding) == "[{x}, {y}]" ? 2 : 4;
      CHECK(received == 4 * rows * (shards - 1) * k * (4 + 4));
      std::vector<Literal> inputs = {tiedRows()};
      std::vector<Literal> expected = evaluate(graph, inputs);
      std::vector<Literal> actual = simulateSpmd(program, inputs);
      REQUIRE(actual.size() == 2);
      CHECK(actual[0] == expected[0]); // bit for bit: NaN and -0.0 where unsharded
      CHECK(actual[1] == expected[1]); // ties: the lower index first
      CHECK(checkPartitionedEqualsInterpreter(graph, 9) == "");
    }
  }
}

TEST_CASE("top_k whose pieces are shorter than k, or whose candidates outweigh the row, gathers") {
  // 32 on 4 pieces of 8: k = 9 exceeds a piece; k = 6 moves 3 * 6 * 8 bytes
  // per row against 24 * 4 for the row.
  for (int64_t k : {9, 6}) {
    CAPTURE(k);
    Graph graph = loadGraph(topKGraph(1, 4, "[{}, {y}]", k));
    propagateInPlace(graph);
    SpmdProgram program = partitionVerified(graph);
    CHECK(countSteps(program, StepKind::AllGather) == 1);
    for (const SpmdStep &step : program.steps)
      if (step.kind == StepKind::Compute)
        CHECK(step.inputs.size() == 1);
    std::vector<Literal> inputs = {tiedRows()};
    CHECK(simulateSpmd(program, inputs)[1] == evaluate(graph, inputs)[1]);
  }
}
