// Graphs with distributions through the tool: propagate and explain show
// them, eval computes them, run and compile partition them chunk by chunk,
// show draws their chunks.

#include <doctest/doctest.h>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

namespace {

const char *kGraph = R"({"format": "shardgen-graph", "version": 1,
  "meshes": [{"name": "cores", "axes": [{"name": "r", "size": 2}, {"name": "c", "size": 3}]}],
  "inputs": [{"name": "x", "type": "tensor<10x10x10xf32>",
              "distribution": {"mesh": "cores", "shard_shape": [1, 10, 10]}}],
  "ops": [{"op": "exponential", "operands": ["x"], "result": "e"},
          {"op": "constant", "result": "zero", "type": "tensor<f32>", "value": 0},
          {"op": "reduce", "operands": ["e", "zero"], "result": "s", "dimensions": [1, 2],
           "reducer": "add"}],
  "outputs": [{"value": "s"}]})";

} // namespace

TEST_CASE("a distributed graph: propagate, explain, eval, run and compile work") {
  std::string dir = makeTempDir();
  std::string graph = dir + "/g.json";
  writeFile(graph, kGraph);

  ToolResult propagated = runShardgen("propagate '" + graph + "'");
  INFO(propagated.err);
  REQUIRE(propagated.exitCode == 0);
  CHECK(contains(propagated.out, R"("result": "s",
      "distribution": {"mesh": "cores", "shard_shape": [1], "order": "row_major"},
      "dimensions": [1, 2],
      "reducer": "add",
      "_origin": "op:/ops/2")"));

  ToolResult explained = runShardgen("explain '" + graph + "' e");
  CHECK(explained.exitCode == 0);
  CHECK(contains(explained.out, "spread through exponential /ops/0 from \"x\""));

  ToolResult evaluated = runShardgen("eval '" + graph + "' -o '" + dir + "/out'");
  INFO(evaluated.err);
  CHECK(evaluated.exitCode == 0);
  CHECK(!readFile(dir + "/out/out0.npy").empty());

  // run and compile partition distributed values.
  ToolResult ran = runShardgen("run '" + graph + "' --check");
  INFO(ran.err);
  CHECK(ran.exitCode == 0);
  CHECK(runShardgen("compile '" + graph + "' -o '" + dir + "/gen'").exitCode == 0);
}

TEST_CASE("show draws a distributed tensor's chunks on the devices they are dealt to") {
  std::string dir = makeTempDir();
  std::string graph = dir + "/g.json";
  // [3, 7] by [2, 2] on 6 devices: 8 chunks, chunks 6 and 7 back on devices 0 and 1.
  writeFile(graph, R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "cores", "axes": [{"name": "r", "size": 2}, {"name": "c", "size": 3}]}],
    "inputs": [{"name": "x", "type": "tensor<3x7xf32>",
                "distribution": {"mesh": "cores", "shard_shape": [2, 2]}}],
    "ops": [{"op": "tanh", "operands": ["x"], "result": "y"}],
    "outputs": [{"value": "y"}]})");
  ToolResult shown = runShardgen("show '" + graph + "'");
  INFO(shown.err);
  REQUIRE(shown.exitCode == 0);
  CHECK(contains(
      shown.out,
      "input 0 \"x\": tensor<3x7xf32>\n"
      "  distribution: {\"mesh\": \"cores\", \"shard_shape\": [2, 2], \"order\": \"row_major\"}\n"
      "  origin:   user:/inputs/0/distribution\n"
      "  blocks:   8 blocks on 6 devices, one device each\n"
      "  rows: dim 0, columns: dim 1\n"
      "        0:2   2:4   4:6   6:7\n"
      "      +-----+-----+-----+-----+\n"
      "  0:2 | d0  | d1  | d2  | d3* |\n"
      "      +-----+-----+-----+-----+\n"
      "  2:3 | d4* | d5* | d0* | d1* |\n"));
  CHECK(contains(shown.out, "output 0 \"y\": tensor<3x7xf32>\n"
                            "  distribution: {\"mesh\": \"cores\", \"shard_shape\": [2, 2], "
                            "\"order\": \"row_major\"}\n"
                            "  origin:   op:/outputs/0\n"));
}
