// Reshapes whose dims do not line up (swapped dims, Shardy's gcd factors) and
// size-0 dims, partitioned and compared with the interpreter: the factors only
// one side of a reshape holds are never sharded locally.

#include <doctest/doctest.h>

#include "compiler/partition/Partitioner.h"
#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// The graph, its shardings propagated.
Graph reshapeGraph(const std::string &in, const std::string &inSharding, const std::string &out,
                   const std::string &outSharding) {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<)" +
                          in + R"(xf32>", "sharding": ")" + inSharding + R"("}],
    "ops": [{"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<)" +
                          out + R"(xf32>"}],
    "outputs": [{"value": "r", "sharding": ")" +
                          outSharding + R"("}]})");
  propagateInPlace(graph);
  return graph;
}

} // namespace

TEST_CASE("a reshape of swapped dims computes locally along the shared factor only") {
  // 6x4 -> 4x6: the major 2 of dim 0 is shared; x shards it on both sides.
  Graph shared = reshapeGraph("6x4", "<@mesh, [{x}, {}]>", "4x6", "<@mesh, [{x}, {}]>");
  CHECK(checkPartitionedEqualsInterpreter(shared, 1) == "");
  SpmdProgram program = partitionVerified(shared);
  CHECK(countSteps(program, StepKind::AllGather) == 0);
  // y on factors only one side holds (the operand's dim 1, the result's
  // dim 1): the data moves, and the numbers stay right.
  Graph oneSided = reshapeGraph("6x4", "<@mesh, [{x}, {y}]>", "4x6", "<@mesh, [{x}, {y}]>");
  CHECK(checkPartitionedEqualsInterpreter(oneSided, 2) == "");
  // 3x2 -> 2x3 shares nothing: every sharded dim is gathered or sliced.
  Graph none = reshapeGraph("3x2", "<@mesh, [{}, {x}]>", "2x3", "<@mesh, [{x}, {}]>");
  CHECK(checkPartitionedEqualsInterpreter(none, 3) == "");
}

TEST_CASE("size-0 dims sharded by propagation partition to empty pieces") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<8x0xf32>"}, {"name": "b", "type": "tensor<8x0xf32>"}],
    "ops": [{"op": "add", "operands": ["a", "b"], "result": "c",
             "sharding": "<@mesh, [{}, {x}]>"}],
    "outputs": [{"value": "c"}]})");
  propagateInPlace(graph);
  CHECK(checkPartitionedEqualsInterpreter(graph, 4) == "");
}
