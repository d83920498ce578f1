// The inputs evaluate() accepts: one per graph input, with its exact type.

#include <doctest/doctest.h>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

const char *kTwoInputs = R"({"format": "shardgen-graph", "version": 1, "meshes": [],
  "inputs": [{"name": "x", "type": "tensor<2xf32>"}, {"name": "w", "type": "tensor<2xf32>"}],
  "ops": [{"op": "add", "operands": ["x", "w"], "result": "y"}],
  "outputs": [{"value": "y"}, {"value": "x"}]})";

GraphError errorOf(const std::vector<Literal> &inputs) {
  Graph graph = loadGraph(kTwoInputs);
  try {
    evaluate(graph, inputs);
  } catch (const GraphError &error) {
    return error;
  }
  FAIL("expected a GraphError");
  return GraphError("", "");
}

} // namespace

TEST_CASE("a wrong number of inputs names /inputs") {
  GraphError error = errorOf({literal("tensor<2xf32>", {1, 2})});
  CHECK(error.pointer() == "/inputs");
  CHECK(std::string(error.what()) == "the graph has 2 inputs but 1 values were given");
}

TEST_CASE("an input of the wrong type is named by its pointer") {
  GraphError error = errorOf({literal("tensor<2xf32>", {1, 2}), literal("tensor<2xf64>", {1, 2})});
  CHECK(error.pointer() == "/inputs/1");
  CHECK(std::string(error.what()) ==
        "input \"w\" has type tensor<2xf32> but the given value is tensor<2xf64>");
  GraphError shape =
      errorOf({literal("tensor<3xf32>", {1, 2, 3}), literal("tensor<2xf32>", {1, 2})});
  CHECK(shape.pointer() == "/inputs/0");
}

TEST_CASE("outputs may repeat inputs and come back in order") {
  Graph graph = loadGraph(kTwoInputs);
  std::vector<Literal> out =
      evaluate(graph, {literal("tensor<2xf32>", {1, 2}), literal("tensor<2xf32>", {10, 20})});
  REQUIRE(out.size() == 2);
  CHECK(floats(out[0]) == std::vector<double>{11, 22});
  CHECK(floats(out[1]) == std::vector<double>{1, 2});
}
