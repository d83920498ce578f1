// Transfer steps compiled and run through the JIT equal the interpreter:
// collectives written in manual computation bodies (whose pieces repeat
// within a group, so they follow the step-by-step semantics, not boxes of a
// global tensor), over groups listed out of mesh order, with free axes
// sharding the body, with uneven and empty pieces, and on a single device.

#include <doctest/doctest.h>

#include <string>

#include "compiler/codegen/CodeGenerator.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kMesh2x2x2 = R"({"name": "m", "axes": [{"name": "x", "size": 2},
    {"name": "y", "size": 2}, {"name": "z", "size": 2}]})";

/// A graph on `mesh` with input a : `inputType` (sharded `inputSharding`)
/// fed to one manual computation over `manualAxes` running `bodyOps` on its
/// local argument "l" (of `bodyType`) and returning "r" with `outSharding`.
std::string manualGraph(const std::string &mesh, const std::string &inputType,
                        const std::string &inputSharding, const std::string &manualAxes,
                        const std::string &bodyType, const std::string &bodyOps,
                        const std::string &outSharding) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" + mesh +
         R"(], "inputs": [{"name": "a", "type": ")" + inputType + R"(", "sharding": ")" +
         inputSharding + R"("}], "ops": [{"op": "manual_computation", "operands": ["a"],
         "results": ["b"], "in_shardings": [")" +
         inputSharding + R"("], "out_shardings": [")" + outSharding + R"("], "manual_axes": )" +
         manualAxes + R"(, "body": {"args": [{"name":
         "l", "type": ")" +
         bodyType + R"("}], "ops": [)" + bodyOps + R"(], "return": ["r"]}}],
         "outputs": [{"value": "b"}]})";
}

std::string compiledVersusInterpreted(const std::string &json, uint64_t seed = 7) {
  try {
    Graph graph = loadVerified(json);
    return checkCompiledEqualsInterpreter(graph, seed);
  } catch (const std::exception &error) {
    return error.what();
  }
}

} // namespace

TEST_CASE("body all_gather where a free axis shards the body: every member's own piece") {
  // Body 4x3, rows sharded on the free axis z: the members of an x group
  // hold the same rows, so box semantics would see one piece, not two.
  std::string json = manualGraph(
      kMesh2x2x2, "tensor<8x6xf32>", "<@m, [{x, z}, {y}]>", R"(["x", "y"])", "tensor<4x3xf32>",
      R"({"op": "all_gather", "operands": ["l"], "result": "r", "axes": ["x"], "dimension": 1})",
      "<@m, [{x, z}, {y}]>");
  CHECK(compiledVersusInterpreted(json) == "");
}

TEST_CASE("body collectives over groups listed out of mesh order") {
  const std::string input = "tensor<8x8xf32>", sharding = "<@m, [{x}, {y}]>";
  const std::string body = "tensor<4x4xf32>", manual = R"(["x", "y"])";
  SUBCASE("all_gather") {
    CHECK(compiledVersusInterpreted(manualGraph(kMesh2x2x2, input, sharding, manual, body,
                                                R"({"op": "all_gather", "operands": ["l"],
            "result": "r", "axes": ["y", "x"], "dimension": 0})",
                                                "<@m, [{x}, {y}]>")) == "");
  }
  SUBCASE("reduce_scatter") {
    CHECK(compiledVersusInterpreted(manualGraph(kMesh2x2x2, input, sharding, manual, body,
                                                R"({"op": "reduce_scatter", "operands": ["l"],
            "result": "r", "axes": ["y", "x"], "dimension": 1, "reducer": "max"})",
                                                "<@m, [{x}, {y}]>")) == "");
  }
  SUBCASE("all_to_all") {
    CHECK(compiledVersusInterpreted(manualGraph(kMesh2x2x2, input, sharding, manual, body,
                                                R"({"op": "all_to_all", "operands": ["l"],
            "result": "r", "axes": ["y", "x"], "split_dimension": 0, "concat_dimension": 1})",
                                                "<@m, [{x}, {y}]>")) == "");
  }
  SUBCASE("collective_permute") {
    CHECK(compiledVersusInterpreted(manualGraph(kMesh2x2x2, input, sharding, manual, body,
                                                R"({"op": "collective_permute", "operands":
            ["l"], "result": "r", "axes": ["y", "x"], "shift": -3})",
                                                "<@m, [{x}, {y}]>")) == "");
  }
  SUBCASE("all_reduce") {
    CHECK(compiledVersusInterpreted(manualGraph(kMesh2x2x2, input, sharding, manual, body,
                                                R"({"op": "all_reduce", "operands": ["l"],
            "result": "r", "axes": ["y", "x"], "reducer": "add"})",
                                                "<@m, [{x}, {y}]>")) == "");
  }
}

TEST_CASE("body collectives with a free axis sharding the body unevenly") {
  // Body 3x4 (rows 3 over the free axis z: pieces of 2 and 1 rows).
  const std::string input = "tensor<3x8xf32>", sharding = "<@m, [{z}, {x}]>";
  const std::string body = "tensor<3x4xf32>", manual = R"(["x"])";
  for (const char *op :
       {R"({"op": "all_gather", "operands": ["l"], "result": "r", "axes": ["x"], "dimension": 1})",
        R"({"op": "reduce_scatter", "operands": ["l"], "result": "r", "axes": ["x"],
            "dimension": 1, "reducer": "add"})",
        R"({"op": "all_to_all", "operands": ["l"], "result": "r", "axes": ["x"],
            "split_dimension": 1, "concat_dimension": 0})",
        R"({"op": "collective_permute", "operands": ["l"], "result": "r", "axes": ["x"],
            "shift": 1})"}) {
    const std::string bodyOp = op;
    CAPTURE(bodyOp);
    CHECK(compiledVersusInterpreted(manualGraph(kMesh2x2x2, input, sharding, manual, body, bodyOp,
                                                "<@m, [{}, {x}]>")) == "");
  }
}

TEST_CASE("an out_sharding leaving a manual axis replicated takes coordinate 0's value") {
  // b = the body result of x = 0, y = 0: its local all_gather over x.
  std::string json = manualGraph(
      kMesh2x2x2, "tensor<4x4xf32>", "<@m, [{x}, {y}]>", R"(["x", "y"])", "tensor<2x2xf32>",
      R"({"op": "all_gather", "operands": ["l"], "result": "r", "axes": ["x"], "dimension": 0})",
      "<@m, [{}, {}], replicated={x, y}>");
  CHECK(compiledVersusInterpreted(json) == "");
}

TEST_CASE("reshards with empty pieces: 3 rows over 4 devices, then 2 devices") {
  std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" +
                     kMesh2x2x2 + R"(], "inputs": [{"name": "a", "type": "tensor<3x5xf32>",
      "sharding": "<@m, [{x, y}, {z}]>"}], "ops": [
      {"op": "negate", "operands": ["a"], "result": "n", "sharding": "<@m, [{z}, {x, y}]>"},
      {"op": "sine", "operands": ["n"], "result": "s", "sharding": "<@m, [{y, z, x}, {}]>"}],
      "outputs": [{"value": "s", "sharding": "<@m, [{}, {y}]>"}, {"value": "n"}]})";
  CHECK(compiledVersusInterpreted(json) == "");
}

TEST_CASE("collectives run through the runtime where groups hold equal pieces") {
  std::string json = manualGraph(
      kMesh2x2x2, "tensor<8x6xf32>", "<@m, [{x, z}, {y}]>", R"(["x", "y"])", "tensor<4x3xf32>",
      R"({"op": "all_gather", "operands": ["l"], "result": "r", "axes": ["x"], "dimension": 1})",
      "<@m, [{x, z}, {y}]>");
  Graph graph = loadVerified(json);
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  CHECK(generated.source.find("rt::allGather(device, rt::AxisList{") != std::string::npos);
  CHECK(generated.source.find("SHARDGEN_F32, rt::DimView{2, 3, 1}") != std::string::npos);
}

TEST_CASE("reshards over sub-axes with uneven pieces, then a body all_reduce") {
  // 7 rows over "x":(1)2 x y (6 shards) and over "x":(2)2: the runtime has
  // no sub-axis groups, so these gather slots over the whole mesh.
  std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [
      {"name": "m", "axes": [{"name": "x", "size": 4}, {"name": "y", "size": 3}]}],
      "inputs": [{"name": "a", "type": "tensor<7x6xf32>",
                  "sharding": "<@m, [{\"x\":(1)2, y}, {\"x\":(2)2}]>"}],
      "ops": [{"op": "negate", "operands": ["a"], "result": "n",
               "sharding": "<@m, [{\"x\":(2)2}, {y, \"x\":(1)2}]>"},
              {"op": "manual_computation", "operands": ["n"], "results": ["b"],
               "in_shardings": ["<@m, [{}, {y}]>"], "out_shardings": ["<@m, [{}, {y}]>"],
               "manual_axes": ["y"], "body": {"args": [{"name": "l", "type": "tensor<7x2xf32>"}],
               "ops": [{"op": "all_reduce", "operands": ["l"], "result": "r", "axes": ["y"],
                        "reducer": "min"}], "return": ["r"]}}],
      "outputs": [{"value": "b", "sharding": "<@m, [{x}, {}]>"}, {"value": "n"}]})";
  CHECK(compiledVersusInterpreted(json) == "");
}

TEST_CASE("a collective over a sub-axis gathers its slots over that axis, not the whole mesh") {
  // attention_heads' scores are partial over "model":(2)2 (2 of the 8
  // devices): the runtime groups over whole axes, so the 256-byte pieces
  // go to slots over "model" (4 x 256 bytes), not over the mesh (8 x 256).
  Graph graph = loadVerified(sample("attention_heads"));
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  const std::string &source = generated.source;
  const size_t step = source.find("over {\"model\":(2)2}");
  REQUIRE(step != std::string::npos);
  // The step's row in the table of runSteps names its kernel.
  const size_t row = source.find("{kernel", step);
  REQUIRE(row != std::string::npos);
  const std::string kernel = source.substr(row + 1, source.find(',', row) - row - 1);
  const size_t slots = source.find("Scratch slots(", source.find("void " + kernel + "("));
  REQUIRE(slots != std::string::npos);
  CHECK(generated.source.compare(slots, 20, "Scratch slots(1024);") == 0);
  CHECK(checkCompiledEqualsInterpreter(graph, 4) == "");
}
