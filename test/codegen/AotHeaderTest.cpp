// The application's header of an AOT-compiled program names each input and
// output by the graph's name, also when the program's value holding it is a
// resharded copy.

#include <doctest/doctest.h>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/pipeline/Pipeline.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("the header names outputs by their graph names, also after a reshard") {
  // z is computed sharded on x and returned sharded on y: the program's
  // output value is a resharded copy of z.
  Graph graph = loadVerified(R"({"format": "shardgen-graph", "version": 1, "name": "names",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4x4xf32>", "sharding": "<@m, [{x}, {}]>"}],
    "ops": [{"op": "tanh", "operands": ["a"], "result": "z", "sharding": "<@m, [{x}, {}]>"}],
    "outputs": [{"value": "z", "sharding": "<@m, [{}, {y}]>"}, {"value": "a"}]})");
  SpmdProgram program = pipeline::propagateAndPartition(graph);
  REQUIRE(program.values[program.outputs[0]].name != "z"); // the case under test
  GeneratedProgram generated = generateProgram(program);
  CHECK(generated.header.find("//   0: z tensor<4x4xf32>") != std::string::npos);
  CHECK(generated.header.find("//   1: a tensor<4x4xf32>") != std::string::npos);
  CHECK(generated.header.find("//   0: a tensor<4x4xf32>") != std::string::npos);
  CHECK(generated.hostSource.find(R"({"z", "tensor<4x4xf32>")") != std::string::npos);
  CHECK(generated.hostSource.find(R"({"a", "tensor<4x4xf32>")") != std::string::npos);
  CHECK(generated.header.find(program.values[program.outputs[0]].name + " tensor") ==
        std::string::npos);
}
