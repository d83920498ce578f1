// The four strategies, on cases where Shardy's documented behaviour sets them
// apart.
#include <doctest/doctest.h>

#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kStrategyMesh = R"({"name": "a", "size": 2})";
const std::string kDot =
    R"({"op": "dot_general", "operands": ["A", "B"], "result": "C",
        "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0])";

} // namespace

TEST_CASE("strategy names parse and print") {
  for (auto name : {"basic", "aggressive", "op-priority", "user-priority"})
    CHECK(strategyName(*parseStrategy(name)) == name);
  CHECK_FALSE(parseStrategy("fast").has_value());
}

TEST_CASE("aggressive takes a conflict-free factor that basic drops (one choice)") {
  // C = A.B with A's free factor on "a" and C's other free factor on "a":
  // basic sees "a" on two factors and propagates nothing; aggressive still
  // shards B's free dim, which has no conflict.
  std::string json =
      graphJson(kStrategyMesh,
                R"({"name": "A", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{a}, {?}]>"},
                                  {"name": "B", "type": "tensor<16x32xf32>"})",
                kDot + R"(, "sharding": "<@mesh, [{?}, {a}]>"})", R"({"value": "C"})");
  CHECK(propagate(json, PropagationStrategy::Basic).sharding("B") == R"(<@mesh, [{}, {}]>)");
  CHECK(propagate(json, PropagationStrategy::Aggressive).sharding("B") ==
        R"(<@mesh, [{}, {"a"}]>)");
}

TEST_CASE("aggressive resolves a conflict between factors by the larger source tensor") {
  // A (8x16) offers "a" on C's dim 0, B (16x32, larger) on C's dim 1.
  std::string json =
      graphJson(kStrategyMesh,
                R"({"name": "A", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{a}, {}]>"},
                                  {"name": "B", "type": "tensor<16x32xf32>", "sharding": "<@mesh, [{}, {a}]>"})",
                kDot + "}", R"({"value": "C"})");
  CHECK(propagate(json, PropagationStrategy::Basic).sharding("C") == R"(<@mesh, [{}, {}]>)");
  CHECK(propagate(json, PropagationStrategy::Aggressive).sharding("C") ==
        R"(<@mesh, [{}, {"a"}]>)");
  CHECK(propagate(json, PropagationStrategy::OpPriority).sharding("C") ==
        R"(<@mesh, [{}, {"a"}]>)");
}

TEST_CASE("op-priority propagates through elementwise ops before broadcasts") {
  // b = broadcast(x) could take "a" on dim 1 from x, while the add offers "a"
  // on dim 0 from w. Without op priorities the broadcast, visited first, wins;
  // with them the elementwise add goes first.
  std::string json = graphJson(
      kStrategyMesh,
      R"({"name": "x", "type": "tensor<8xf32>", "sharding": "<@mesh, [{a}]>"},
         {"name": "w", "type": "tensor<4x8xf32>", "sharding": "<@mesh, [{a}, {?}]>"})",
      R"({"op": "broadcast_in_dim", "operands": ["x"], "result": "b", "type": "tensor<4x8xf32>",
          "broadcast_dimensions": [1]},
         {"op": "add", "operands": ["b", "w"], "result": "c"})",
      R"({"value": "c"})");
  auto aggressive = propagate(json, PropagationStrategy::Aggressive);
  CHECK(aggressive.sharding("b") == R"(<@mesh, [{}, {"a"}]>)");
  CHECK(aggressive.sharding("c") == R"(<@mesh, [{}, {"a"}]>)");
  auto opPriority = propagate(json, PropagationStrategy::OpPriority);
  CHECK(opPriority.sharding("b") == R"(<@mesh, [{"a"}, {}]>)");
  CHECK(opPriority.sharding("c") == R"(<@mesh, [{"a"}, {}]>)");
}

TEST_CASE("user-priority: p0 shardings propagate before p1 ones") {
  std::string json =
      graphJson(kStrategyMesh,
                R"({"name": "A", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{a}p1, {?}]>"},
         {"name": "B", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {a}p0]>"})",
                R"({"op": "add", "operands": ["A", "B"], "result": "C"})", R"({"value": "C"})");
  auto user = propagate(json, PropagationStrategy::UserPriority);
  CHECK(user.sharding("C") == R"(<@mesh, [{}, {"a"}]>)");
  CHECK(user.sharding("A") == R"(<@mesh, [{"a"}, {}]>)"); // priorities dropped, A keeps its own
  // Ignoring priorities, the tie goes to the first operand's factor.
  CHECK(propagate(json, PropagationStrategy::Aggressive).sharding("C") ==
        R"(<@mesh, [{"a"}, {}]>)");
  CHECK(propagate(json, PropagationStrategy::Basic).sharding("C") == R"(<@mesh, [{}, {}]>)");
}

TEST_CASE("user-priority: a lower-priority sharding fills what higher ones left open") {
  std::string json =
      graphJson(R"({"name": "a", "size": 2}, {"name": "b", "size": 2})",
                R"({"name": "A", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{a}p0, {?}]>"},
         {"name": "B", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {b}p2]>"})",
                R"({"op": "add", "operands": ["A", "B"], "result": "C"})", R"({"value": "C"})");
  auto user = propagate(json);
  CHECK(user.sharding("C") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(user.sharding("B") == R"(<@mesh, [{"a"}, {"b"}]>)");
}

TEST_CASE("aggressive: nothing sideways into an elementwise operand past a closed empty result") {
  // Shardy's aggressive_propagation.mlir
  // @sideways_propagation_if_result_is_closed_empty: y's "a" would reach z
  // only sideways (operand to operand), and the result must stay replicated.
  std::string json =
      graphJson(kStrategyMesh,
                R"({"name": "y", "type": "tensor<8xf32>", "sharding": "<@mesh, [{a}]>"},
                                  {"name": "z", "type": "tensor<8xf32>"})",
                R"({"op": "add", "operands": ["y", "z"], "result": "s",
                                   "sharding": "<@mesh, [{}]>"})",
                R"({"value": "s"})");
  CHECK(propagate(json, PropagationStrategy::Aggressive).sharding("z") == R"(<@mesh, [{}]>)");
  // A custom_call with the same rule is not elementwise: z takes "a".
  std::string call =
      graphJson(kStrategyMesh,
                R"({"name": "y", "type": "tensor<8xf32>", "sharding": "<@mesh, [{a}]>"},
                                  {"name": "z", "type": "tensor<8xf32>"})",
                R"({"op": "custom_call", "call_target_name": "f", "operands": ["y", "z"],
                                   "result": "s", "type": "tensor<8xf32>",
                                   "sharding_rule": "([i], [i])->([i]) {i=8}",
                                   "sharding": "<@mesh, [{}]>"})",
                R"({"value": "s"})");
  CHECK(propagate(call, PropagationStrategy::Aggressive).sharding("z") == R"(<@mesh, [{"a"}]>)");
}

TEST_CASE("op-priority: an elementwise op whose operand has other uses waits a stage") {
  // After Shardy's op_priority_propagation.mlir
  // @defer_forward_propagation_for_multi_use_ops: add(x, x) uses x twice, so
  // it waits while the output's sharding comes back through negate first.
  std::string json =
      graphJson(kStrategyMesh,
                R"({"name": "x", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{a, ?}, {?}]>"})",
                R"({"op": "add", "operands": ["x", "x"], "result": "s"},
                                  {"op": "negate", "operands": ["s"], "result": "n"})",
                R"({"value": "n", "sharding": "<@mesh, [{}, {a}]>"})");
  // n takes {}, {a} from the output (first stage, single use); s from n;
  // x's own "a" on dim 0 then conflicts with s's dim 1 and s keeps its own.
  CHECK(propagate(json, PropagationStrategy::OpPriority).sharding("s") ==
        R"(<@mesh, [{}, {"a"}]>)");
}

TEST_CASE("user-priority: a group member's copy of a p1 sharding waits for p1 too") {
  // Shardy syncs group members before user-priority propagation, so y holds
  // x's [{a}p1] as its own p1 sharding: at p0 its dim is closed and empty,
  // and w takes q's "b" without a conflict; only then does y show "a".
  std::string json =
      graphJson(R"({"name": "a", "size": 2}, {"name": "b", "size": 2})",
                R"({"name": "x", "type": "tensor<8xf32>", "sharding": "<@mesh, [{a}p1]>"},
         {"name": "z", "type": "tensor<8xf32>"},
         {"name": "q", "type": "tensor<8xf32>", "sharding": "<@mesh, [{b}p0]>"})",
                R"({"op": "negate", "operands": ["z"], "result": "y"},
         {"op": "sharding_group", "group_id": 0, "operands": ["x"]},
         {"op": "sharding_group", "group_id": 0, "operands": ["y"]},
         {"op": "add", "operands": ["y", "q"], "result": "w"})",
                R"({"value": "w"}, {"value": "x"})");
  auto p = propagate(json, PropagationStrategy::UserPriority);
  CHECK(p.sharding("w") == R"(<@mesh, [{"b"}]>)");
  CHECK(p.sharding("y") == R"(<@mesh, [{"a"}]>)");
  CHECK(p.sharding("z") == R"(<@mesh, [{"a"}]>)");
}
