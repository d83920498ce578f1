// gather and scatter partitioned on a 2x2 mesh: which dims pass through
// without communication (indices sharded on batch dims, the operand on a
// dim taken whole), which need replication, and the reductions (a table
// sharded along its rows: one all_reduce of the gathered rows; a
// scatter-add of sharded updates: one all_reduce). Each program simulated
// equals the interpreter.

#include <doctest/doctest.h>

#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string graphOf(const std::string &inputs, const std::string &op) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [)" +
         inputs + R"(], "ops": [)" + op + R"(], "outputs": [{"value": "r"}]})";
}

/// Rows of a [6, 8] table at [4, 1] indices.
const std::string kGatherRows =
    R"({"op": "gather", "operands": ["t", "i"], "result": "r",
        "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                              "start_index_map": [0], "index_vector_dim": 1},
        "slice_sizes": [1, 8]})";

std::string scatterOp(const std::string &body, const std::string &windowDims = "[1]",
                      const std::string &inserted = "[0]", const std::string &map = "[0]") {
  return R"({"op": "scatter", "operands": ["t", "i", "u"], "result": "r",
      "scatter_dimension_numbers": {"update_window_dims": )" +
         windowDims + R"(, "inserted_window_dims": )" + inserted +
         R"(, "scatter_dims_to_operand_dims": )" + map +
         R"(, "index_vector_dim": 1},
      "update_computation": {"args": [{"name": "a", "type": "tensor<f32>"},
                                      {"name": "b", "type": "tensor<f32>"}],
                             "ops": [)" +
         body + R"(], "return": ["v"]}})";
}

const std::string kAddBody = R"({"op": "add", "operands": ["a", "b"], "result": "v"})";
const std::string kReplaceBody =
    R"({"op": "maximum", "operands": ["b", "b"], "result": "v"})"; // b: a replace

struct Traffic {
  size_t allReduces, allGathers;
};

Traffic partitioned(const std::string &json) {
  Graph graph = loadGraph(json);
  propagateInPlace(graph);
  for (uint64_t seed : {1, 2, 3})
    CHECK(checkPartitionedEqualsInterpreter(graph, seed) == "");
  SpmdProgram program = partitionVerified(graph);
  return {countSteps(program, StepKind::AllReduce), countSteps(program, StepKind::AllGather)};
}

} // namespace

TEST_CASE(
    "gather: indices sharded on a batch dim and the table on a dim taken whole pass through") {
  Traffic t = partitioned(
      graphOf(R"({"name": "t", "type": "tensor<6x8xf32>", "sharding": "<@m, [{}, {y}]>"},
                                     {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@m, [{x}, {}]>"})",
              kGatherRows));
  CHECK(t.allReduces == 0);
  CHECK(t.allGathers == 0);
  // Explicit batching dims: operand, indices and result share them.
  Traffic batched = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<4x6x8xf32>", "sharding": "<@m, [{x}, {}, {y}]>"},
         {"name": "i", "type": "tensor<4x3x1xi64>", "sharding": "<@m, [{x}, {}, {}]>"})",
      R"({"op": "gather", "operands": ["t", "i"], "result": "r",
          "dimension_numbers": {"offset_dims": [2], "collapsed_slice_dims": [1],
                                "operand_batching_dims": [0], "start_indices_batching_dims": [0],
                                "start_index_map": [1], "index_vector_dim": 2},
          "slice_sizes": [1, 1, 8]})"));
  CHECK(batched.allReduces == 0);
  CHECK(batched.allGathers == 0);
}

TEST_CASE("gather: a sliced dim is gathered first") {
  // Windows of 3 of 8 columns: columns sharded on y are gathered.
  Traffic t = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<6x8xf32>", "sharding": "<@m, [{}, {y}]>"},
         {"name": "i", "type": "tensor<4x2xi32>"})",
      R"({"op": "gather", "operands": ["t", "i"], "result": "r",
          "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                                "start_index_map": [0, 1], "index_vector_dim": 1},
          "slice_sizes": [1, 3]})"));
  CHECK(t.allGathers == 1);
  CHECK(t.allReduces == 0);
}

TEST_CASE("gather from a table sharded along its rows: one all_reduce of the rows") {
  Traffic t = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<6x8xf32>", "sharding": "<@m, [{y}, {}]>"},
         {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@m, [{x}, {}]>"})",
      kGatherRows));
  CHECK(t.allReduces == 1);
  CHECK(t.allGathers == 0);
  // Uneven rows (5 over 2 devices), integers, indices of ui8.
  Traffic uneven = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<5x8xi32>", "sharding": "<@m, [{y}, {}]>"},
         {"name": "i", "type": "tensor<4x1xui8>", "sharding": "<@m, [{x}, {}]>"})",
      kGatherRows));
  CHECK(uneven.allReduces == 1);
}

TEST_CASE("scatter-add of updates sharded on their batch dim: one all_reduce") {
  Traffic t = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<6x8xf32>"},
         {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@m, [{x}, {}]>"},
         {"name": "u", "type": "tensor<4x8xf32>", "sharding": "<@m, [{x}, {y}]>"})",
      scatterOp(kAddBody)));
  CHECK(t.allReduces == 1);
}

TEST_CASE("scatter into an input sharded along an inserted dim: each piece takes its updates") {
  Traffic t = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<6x8xf32>", "sharding": "<@m, [{x}, {y}]>"},
         {"name": "i", "type": "tensor<4x1xi32>"},
         {"name": "u", "type": "tensor<4x8xf32>", "sharding": "<@m, [{}, {y}]>"})",
      scatterOp(kReplaceBody)));
  CHECK(t.allReduces == 0);
  CHECK(t.allGathers == 0);
}

TEST_CASE("scatter: a replace's batch dims and an indexed window dim need replication") {
  Traffic replace = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<6x8xf32>"},
         {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@m, [{x}, {}]>"},
         {"name": "u", "type": "tensor<4x8xf32>", "sharding": "<@m, [{x}, {}]>"})",
      scatterOp(kReplaceBody)));
  CHECK(replace.allReduces == 0);
  CHECK(replace.allGathers >= 1);
  // Windows of 3 along a dim of 8 at each start, element by element.
  Traffic window = partitioned(graphOf(
      R"({"name": "t", "type": "tensor<6x8xf32>", "sharding": "<@m, [{}, {y}]>"},
         {"name": "i", "type": "tensor<4x2xi32>"},
         {"name": "u", "type": "tensor<4x3xf32>"})",
      scatterOp(kAddBody, "[1]", "[0]", "[0, 1]")));
  CHECK(window.allReduces == 0);
}
