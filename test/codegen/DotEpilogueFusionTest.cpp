// A dot's elementwise consumer fused into its epilogue (Fusion.h,
// DotEpilogueFusion.cpp): bias + activation run on each tile of the product
// as the dot finishes it, the product is never stored, and the results are
// those of the reference interpreter, bit for bit those of the unfused
// program.

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// y = tanh(x w + bias) (+ the product p as a second output when
/// `productToo`), x split unevenly by rows (3 and 2), w by columns.
std::string mlpLayer(const std::string &type, bool productToo) {
  const std::string t = "x" + type + ">";
  return R"({"format": "shardgen-graph", "version": 1, "name": "epilogue", "meshes": [
    {"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<5x7)" +
         t + R"(", "sharding": "<@m, [{x}, {}]>"},
               {"name": "w", "type": "tensor<7x8)" +
         t + R"(", "sharding": "<@m, [{}, {y}]>"},
               {"name": "bias", "type": "tensor<8)" +
         t + R"(", "sharding": "<@m, [{y}]>"}],
    "ops": [{"op": "dot_general", "operands": ["x", "w"], "result": "p",
             "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
            {"op": "broadcast_in_dim", "operands": ["bias"], "result": "bb",
             "type": "tensor<5x8)" +
         t + R"(", "broadcast_dimensions": [1]},
            {"op": "add", "operands": ["p", "bb"], "result": "h"},
            {"op": "tanh", "operands": ["h"], "result": "y"}],
    "outputs": [{"value": "y", "sharding": "<@m, [{x}, {y}]>"})" +
         (productToo ? R"(, {"value": "p", "sharding": "<@m, [{x}, {y}]>"})" : "") + "]}";
}

/// A batched dot (batch 2) whose product is scaled by a scalar and added to
/// a residual read at the element's index.
const std::string kBatched = R"({"format": "shardgen-graph", "version": 1, "name": "batched",
  "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
  "inputs": [{"name": "a", "type": "tensor<2x3x5xf32>", "sharding": "<@m, [{}, {x}, {}]>"},
             {"name": "b", "type": "tensor<2x5x4xf32>", "sharding": "<@m, [{}, {}, {}]>"},
             {"name": "r", "type": "tensor<2x3x4xf32>", "sharding": "<@m, [{}, {x}, {}]>"},
             {"name": "s", "type": "tensor<f32>", "sharding": "<@m, []>"}],
  "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "p",
           "lhs_batching_dimensions": [0], "rhs_batching_dimensions": [0],
           "lhs_contracting_dimensions": [2], "rhs_contracting_dimensions": [1]},
          {"op": "broadcast_in_dim", "operands": ["s"], "result": "sb",
           "type": "tensor<2x3x4xf32>", "broadcast_dimensions": []},
          {"op": "multiply", "operands": ["p", "sb"], "result": "ps"},
          {"op": "add", "operands": ["ps", "r"], "result": "y"}],
  "outputs": [{"value": "y", "sharding": "<@m, [{}, {x}, {}]>"}]})";

} // namespace

TEST_CASE("bias and tanh run in the dot's epilogue and equal the interpreter") {
  const std::string source = generatedSource(mlpLayer("f32", false));
  CHECK(source.find("/ops/0, /ops/1, /ops/2, /ops/3 (fused)") != std::string::npos);
  CHECK(source.find("float product)") != std::string::npos);
  CHECK(source.find("loadAt(in0, c)") != std::string::npos); // the bias at the column
  CHECK(source.find("fusedElementwise") == std::string::npos);
  Graph graph = loadVerified(mlpLayer("f32", false));
  CHECK(checkCompiledEqualsInterpreter(graph, 21) == "");
  // The generic (non-f32) kernel runs the epilogue too.
  Graph bf16 = loadVerified(mlpLayer("bf16", false));
  CHECK(checkCompiledEqualsInterpreter(bf16, 22) == "");
}

TEST_CASE("a stored product is not fused; the fused result has the unfused bits") {
  const std::string unfusedSource = generatedSource(mlpLayer("f32", true));
  CHECK(unfusedSource.find("float product)") == std::string::npos);
  Graph fused = loadVerified(mlpLayer("f32", false)), unfused = loadVerified(mlpLayer("f32", true));
  SpmdProgram fusedProgram = partitionVerified(fused), unfusedProgram = partitionVerified(unfused);
  CompiledProgram a(fusedProgram, generateProgram(fusedProgram));
  CompiledProgram b(unfusedProgram, generateProgram(unfusedProgram));
  const std::vector<Literal> inputs = randomInputs(fused, 23);
  const std::vector<Literal> outA = a.run(inputs), outB = b.run(inputs);
  REQUIRE(outA.size() == 1);
  REQUIRE(outB.size() == 2);
  REQUIRE(outA[0].byteSize() == outB[0].byteSize());
  CHECK(std::memcmp(outA[0].data(), outB[0].data(), outA[0].byteSize()) == 0);
}

TEST_CASE("a batched dot's epilogue reads a scalar and a residual at the element") {
  const std::string source = generatedSource(kBatched);
  CHECK(source.find("float product)") != std::string::npos);
  CHECK(source.find("loadAt(in1, i)") != std::string::npos); // the residual
  Graph graph = loadVerified(kBatched);
  CHECK(checkCompiledEqualsInterpreter(graph, 24) == "");
}
