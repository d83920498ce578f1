// `explain`: the origin chain back to user annotations, and why a dim ended
// replicated.
#include <doctest/doctest.h>

#include "compiler/ir/Diagnostic.h"
#include "test/propagate/PropagationTestUtil.h"
#include "test/support/ArgmaxGraph.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kExplainMesh = R"({"name": "x", "size": 2}, {"name": "y", "size": 2})";

std::string explain(const std::string &inputs, const std::string &ops, const std::string &outputs,
                    const std::string &value,
                    PropagationStrategy strategy = PropagationStrategy::UserPriority) {
  auto p = propagate(graphJson(kExplainMesh, inputs, ops, outputs), strategy);
  return explainValue(p.graph, p.result, value);
}

bool mentions(const std::string &text, const std::string &piece) {
  return text.find(piece) != std::string::npos;
}

} // namespace

TEST_CASE("explain follows origins back to the user's sharding") {
  std::string text =
      explain(R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {}]>"})",
              R"({"op": "tanh", "operands": ["a"], "result": "b"},
         {"op": "transpose", "operands": ["b"], "result": "c", "permutation": [1, 0]})",
              R"({"value": "c"})", "c");
  CAPTURE(text);
  CHECK(mentions(text, R"(value "c": <@mesh, [{}, {"x"}]>)"));
  CHECK(mentions(text, R"(propagated through transpose /ops/1 from "b")"));
  CHECK(mentions(text, R"(propagated through tanh /ops/0 from "a")"));
  CHECK(mentions(text, "user sharding at /inputs/0/sharding"));
}

TEST_CASE("why replicated: a conflict between two operands") {
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{x}]>"},
         {"name": "b", "type": "tensor<8xf32>", "sharding": "<@mesh, [{y}]>"})",
      R"({"op": "add", "operands": ["a", "b"], "result": "c"})", R"({"value": "c"})", "c");
  CAPTURE(text);
  CHECK(mentions(text, "dim 0 (size 8) is replicated"));
  CHECK(mentions(text, R"(conflict: "a" offers {"x"} through add /ops/0, but "b" has {"y"})"));
}

TEST_CASE("why replicated: a closed dim") {
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
         {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {}]>"})",
      R"({"op": "add", "operands": ["a", "b"], "result": "c"})", R"({"value": "c"})", "b");
  CAPTURE(text);
  CHECK(mentions(text, "dim 1 (size 8) is replicated"));
  CHECK(mentions(text, "closed dim"));
  CHECK(mentions(text, "/inputs/1/sharding"));
}

TEST_CASE("why replicated: a closed dim a sharding_group member copied") {
  // d copies a's closed dim 1 through the group; e's y cannot enter it.
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {}]>"},
         {"name": "e", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {y}]>"})",
      R"({"op": "negate", "operands": ["e"], "result": "d"},
         {"op": "sharding_group", "group_id": 3, "operands": ["a"]},
         {"op": "sharding_group", "group_id": 3, "operands": ["d"]})",
      R"({"value": "d"})", "d");
  CAPTURE(text);
  CHECK(mentions(text, "dim 1 (size 8) is replicated"));
  CHECK(mentions(text, "closed in the sharding at sharding_group 3"));
}

TEST_CASE("why replicated: an explicitly replicated axis") {
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{y}]>"},
         {"name": "b", "type": "tensor<8xf32>", "sharding": "<@mesh, [{?}], replicated={y}>"})",
      R"({"op": "add", "operands": ["a", "b"], "result": "c"})", R"({"value": "c"})", "b");
  CAPTURE(text);
  CHECK(mentions(text, R"(replicated axis: "a" offers {"y"} through add /ops/0)"));
}

TEST_CASE("why replicated: a propagation barrier") {
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8xf32>"})",
      R"({"op": "propagation_barrier", "operands": ["a"], "result": "b", "allowed_direction": "FORWARD"},
         {"op": "negate", "operands": ["b"], "result": "c", "sharding": "<@mesh, [{x}]>"})",
      R"({"value": "c"})", "a");
  CAPTURE(text);
  CHECK(mentions(
      text,
      R"(barrier: "b" offers {"x"} through propagation_barrier /ops/0, but it allows only FORWARD)"));
  CHECK(mentions(text, "replicated by default"));
}

TEST_CASE("why replicated: a custom_call without sharding_rule") {
  std::string text =
      explain(R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{x}]>"})",
              R"({"op": "custom_call", "operands": ["a"], "result": "b", "type": "tensor<8xf32>",
          "call_target_name": "my_kernel"})",
              R"({"value": "b"})", "b");
  CAPTURE(text);
  CHECK(mentions(text, "missing rule: custom_call /ops/0 has no sharding_rule"));
}

TEST_CASE("why replicated: the axis already shards another dim") {
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {?}]>"},
         {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {x}]>"})",
      R"({"op": "add", "operands": ["a", "b"], "result": "c"})", R"({"value": "c"})", "a");
  CAPTURE(text);
  CHECK(mentions(
      text, R"(axis in use: "b" offers {"x"} through add /ops/0, but {"x"} already shards dim 0)"));
}

TEST_CASE("why replicated: nothing reached it") {
  std::string text =
      explain(R"({"name": "a", "type": "tensor<8xf32>"})",
              R"({"op": "negate", "operands": ["a"], "result": "b"})", R"({"value": "b"})", "b");
  CAPTURE(text);
  CHECK(mentions(text, "nothing offered an axis"));
  CHECK(mentions(text, "replicated by default"));
}

TEST_CASE("explain of an unknown value is an error") {
  auto p = propagate(graphJson(kExplainMesh, R"({"name": "a", "type": "tensor<8xf32>"})", "",
                               R"({"value": "a"})"));
  CHECK_THROWS_AS(explainValue(p.graph, p.result, "nope"), GraphError);
}

TEST_CASE("explain names a manual_computation's out_sharding and in_sharding by their pointers") {
  std::string graph = graphJson(R"({"name": "x", "size": 2}, {"name": "y", "size": 2})",
                                R"({"name": "a", "type": "tensor<8x16xf32>"})",
                                R"({"op": "manual_computation", "operands": ["a"], "results": ["r"],
          "in_shardings": ["<@mesh, [{x}, {}]>"], "out_shardings": ["<@mesh, [{x}, {y}]>"],
          "manual_axes": ["x"],
          "body": {"args": [{"name": "al", "type": "tensor<4x16xf32>"}],
                   "ops": [{"op": "tanh", "operands": ["al"], "result": "bl"}],
                   "return": ["bl"]}},
         {"op": "negate", "operands": ["r"], "result": "n"})",
                                R"({"value": "n"})");
  auto p = propagate(graph, PropagationStrategy::UserPriority);
  std::string n = explainValue(p.graph, p.result, "n");
  CAPTURE(n);
  CHECK(mentions(n, R"(propagated through negate /ops/1 from "r")"));
  CHECK(mentions(n, "user sharding at /ops/0/out_shardings/0\n"));
  std::string a = explainValue(p.graph, p.result, "a");
  CAPTURE(a);
  CHECK(mentions(a, "user sharding at /ops/0/in_shardings/0\n"));
}

TEST_CASE("explain names a sharding_group by its id, beyond 32 bits too") {
  std::string text = explain(
      R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {}]>"},
         {"name": "e", "type": "tensor<8x8xf32>"})",
      R"({"op": "negate", "operands": ["e"], "result": "d"},
         {"op": "sharding_group", "group_id": 5000000000, "operands": ["a"]},
         {"op": "sharding_group", "group_id": 5000000000, "operands": ["d"]})",
      R"({"value": "d"})", "d");
  CAPTURE(text);
  CHECK(mentions(text, R"(member of sharding_group 5000000000, same as "a")"));
  CHECK(mentions(text, "user sharding at /inputs/0/sharding"));
}

TEST_CASE("explain of a value inside a reduce's scalar body says it has no sharding") {
  auto p = propagate(argmaxGraph("tensor<4x16xf32>", "<@mesh, [{}, {\\\"model\\\"}]>", "", "[1]",
                                 "tensor<4xf32>", "tensor<4xi32>"),
                     PropagationStrategy::UserPriority);
  CHECK(mentions(explainValue(p.graph, p.result, "best"), R"(value "best")"));
  try {
    explainValue(p.graph, p.result, "pick");
    FAIL("explain of a body value did not fail");
  } catch (const GraphError &error) {
    CHECK(mentions(error.what(),
                   R"("pick" is a scalar in an op's body: it has no sharding to explain)"));
  }
}
