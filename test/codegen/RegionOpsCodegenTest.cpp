// Ops with regions or data-flow edges compiled and run against the
// interpreter: a reduce of two inputs with a body of its own over a sharded
// reduced dim, and optimization_barrier.

#include <doctest/doctest.h>

#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("a two-input reduce with an integer body over a sharded dim matches the interpreter") {
  for (const char *sharding : {"[{x}, {y}]", "[{}, {x, y}]", "[{y}, {}]"}) {
    INFO(sharding);
    Graph graph = loadVerified(
        graphOn2x2("sums",
                   R"({"name": "a", "type": "tensor<4x12xi32>", "sharding": "<@m, )" +
                       std::string(sharding) + R"(>"}, {"name": "b", "type": "tensor<4x12xi8>"})",
                   R"({"op": "constant", "result": "zero", "value": 0, "type": "tensor<i32>"},
           {"op": "constant", "result": "none", "value": 0, "type": "tensor<i8>"},
           {"op": "reduce", "operands": ["a", "b", "zero", "none"], "results": ["s", "x"],
            "dimensions": [1],
            "body": {"args": [{"name": "p", "type": "tensor<i32>"}, {"name": "q", "type": "tensor<i8>"},
                              {"name": "u", "type": "tensor<i32>"}, {"name": "v", "type": "tensor<i8>"}],
                     "ops": [{"op": "add", "operands": ["p", "u"], "result": "pu"},
                             {"op": "xor", "operands": ["q", "v"], "result": "qv"}],
                     "return": ["pu", "qv"]}})",
                   R"({"value": "s"}, {"value": "x"})"));
    CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
  }
}

TEST_CASE("optimization_barrier passes its operands through, resharded to its results") {
  Graph graph = loadVerified(
      graphOn2x2("barrier",
                 R"({"name": "a", "type": "tensor<8x4xf32>", "sharding": "<@m, [{x}, {}]>"},
         {"name": "b", "type": "tensor<8x4xf32>"})",
                 R"({"op": "optimization_barrier", "operands": ["a", "b"], "results": ["c", "d"],
          "shardings": [null, "<@m, [{}, {y}]>"]},
         {"op": "multiply", "operands": ["c", "d"], "result": "e"})",
                 R"({"value": "e"}, {"value": "d"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 9) == "");
}
