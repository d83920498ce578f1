// What a value holds after reading: its type, the process's one instance of
// it (shared by every value and declared type spelling the same type,
// whichever reader path read it), and its pointer, derived from the input,
// op or body argument defining it.
#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"

using namespace shardgen;

namespace {

// `b`, `t` and the body go through the JSON path (a `_` key or an attribute
// the plain reader leaves), the rest through the plain reader.
const char *kSlotsGraph = R"({"format": "shardgen-graph", "version": 1,
  "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
  "inputs": [{"name": "a", "type": "tensor<4x8xf32>"},
             {"name": "b", "type": "tensor<4x8xf32>", "_note": "through JSON"},
             {"name": "c", "type": "tensor<8x4xf32>"}],
  "ops": [
    {"op": "add", "operands": ["a", "b"], "result": "s", "type": "tensor<4x8xf32>"},
    {"op": "reshape", "operands": ["s"], "result": "r", "type": "tensor<8x4xf32>"},
    {"op": "custom_call", "operands": ["r", "c"], "results": ["k0", "k1"],
     "types": ["tensor<8x4xf32>", null], "call_target_name": "t"},
    {"op": "manual_computation", "operands": ["k0"], "results": ["mc"],
     "in_shardings": ["<@m, [{x}, {}]>"], "out_shardings": ["<@m, [{x}, {}]>"],
     "manual_axes": ["x"],
     "body": {"args": [{"name": "l", "type": "tensor<4x4xf32>"}],
              "ops": [{"op": "negate", "operands": ["l"], "result": "n"}],
              "return": ["n"]}}
  ],
  "outputs": [{"value": "mc"}, {"value": "k1"}]})";

const Value &named(const Graph &graph, const std::string &name) {
  for (const Value &value : graph.values)
    if (value.name == name)
      return value;
  FAIL("no value " << name);
  return graph.values[0];
}

/// Each value's pointer as the readers stored it in the value itself before
/// it was derived: its defining input, op or body argument.
void checkPointers(const Graph &graph) {
  CHECK(named(graph, "a").pointer() == "/inputs/0");
  CHECK(named(graph, "b").pointer() == "/inputs/1");
  CHECK(named(graph, "c").pointer() == "/inputs/2");
  CHECK(named(graph, "s").pointer() == "/ops/0");
  CHECK(named(graph, "r").pointer() == "/ops/1");
  CHECK(named(graph, "k0").pointer() == "/ops/2");
  CHECK(named(graph, "k1").pointer() == "/ops/2");
  CHECK(named(graph, "mc").pointer() == "/ops/3");
  CHECK(named(graph, "l").pointer() == "/ops/3/body/args/0");
  CHECK(named(graph, "n").pointer() == "/ops/3/body/ops/0");
}

} // namespace

TEST_CASE("reader: equal types share one instance, whichever path read them") {
  Graph graph = readGraph(kSlotsGraph);
  const TensorType *wide = named(graph, "a").type.get();
  REQUIRE(wide != nullptr);
  CHECK(*wide == TensorType{ElementType::F32, {4, 8}});
  CHECK(named(graph, "b").type.get() == wide);
  CHECK(graph.main.ops[0].declaredTypes[0].get() == wide);
  const TensorType *tall = named(graph, "c").type.get();
  CHECK(tall != wide);
  CHECK(graph.main.ops[1].declaredTypes[0].get() == tall);
  CHECK(graph.main.ops[2].declaredTypes[0].get() == tall);
  CHECK_FALSE(graph.main.ops[2].declaredTypes[1].has_value());
  // Another graph read later shares them too.
  Graph again = readGraph(kSlotsGraph);
  CHECK(named(again, "a").type.get() == wide);
}

TEST_CASE("reader: a value's pointer is its input's, op's or body argument's") {
  Graph graph = readGraph(kSlotsGraph);
  checkPointers(graph);
  CHECK(named(graph, "k1").resultIndex == 1);
  CHECK(named(graph, "l").argumentIndex == 0);
  CHECK(named(graph, "c").argumentIndex == 2);
  Graph copy = graph.clone();
  checkPointers(copy);
  Graph moved = std::move(copy);
  checkPointers(moved);
}

TEST_CASE("reader: the values vector holds one value per input and op, no more") {
  Graph graph = readGraph(kSlotsGraph);
  // 3 inputs, 4 ops: 7 reserved; the second result and the body's two
  // values grow it once.
  CHECK(graph.values.size() == 10);
  Graph chain = readGraph(R"({"format": "shardgen-graph", "version": 1,
    "inputs": [{"name": "a", "type": "tensor<4xf32>"}, {"name": "b", "type": "tensor<4xf32>"}],
    "ops": [{"op": "add", "operands": ["a", "b"], "result": "c"},
            {"op": "negate", "operands": ["c"], "result": "d"},
            {"op": "tanh", "operands": ["d"], "result": "e"}],
    "outputs": [{"value": "e"}]})");
  CHECK(chain.values.size() == 5);
  CHECK(chain.values.capacity() == 5);
}
