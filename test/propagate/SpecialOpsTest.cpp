// sharding_constraint, sharding_group, propagation_barrier and graph outputs.
#include <doctest/doctest.h>

#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {
const std::string kSpecialOpsMesh = R"({"name": "x", "size": 2}, {"name": "y", "size": 2})";
}

TEST_CASE("a closed sharding_constraint shards its operand too, whatever its other uses") {
  // Shardy's apply_sharding_constraints.mlir @input_has_one_use and
  // @no_other_sharding_constraint_users: the operand holds the closed
  // constraint from the start, so y from p cannot enter its dim 1.
  std::string inputs =
      R"({"name": "p", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {y}]>"},
                          {"name": "q", "type": "tensor<8x8xf32>"})";
  auto graph = [&](const std::string &constraintSharding, const std::string &more) {
    return graphJson(kSpecialOpsMesh, inputs,
                     R"({"op": "add", "operands": ["p", "q"], "result": "a"},
                        {"op": "sharding_constraint", "operands": ["a"], "result": "c",
                         "sharding": ")" +
                         constraintSharding + R"("},
                        {"op": "negate", "operands": ["a"], "result": "n"})" +
                         more,
                     R"({"value": "c"}, {"value": "n"})");
  };
  auto closed = propagate(graph("<@mesh, [{x}, {}]>", ""));
  CHECK(closed.sharding("a") == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(closed.origin("a") == "constraint:/ops/1");
  CHECK(closed.sharding("n") == R"(<@mesh, [{"x"}, {}]>)");
  // @open_sharding_constraint: an open constraint is not applied; a is an
  // ordinary open value and gets x back through the constraint and y from p.
  auto open = propagate(graph("<@mesh, [{x}, {?}]>", ""));
  CHECK(open.sharding("a") == R"(<@mesh, [{"x"}, {"y"}]>)");
  // @has_different_sharding_constraint_user: two constraints asking
  // different things: neither is applied.
  auto two = propagate(graph("<@mesh, [{x}, {}]>", R"(, {"op": "sharding_constraint",
      "operands": ["a"], "result": "c2", "sharding": "<@mesh, [{}, {y}]>"})"));
  CHECK(two.sharding("a") == R"(<@mesh, [{"x"}, {"y"}]>)");
  // @has_other_identical_sharding_constraint_user: equal asks are applied.
  auto same = propagate(graph("<@mesh, [{x}, {}]>", R"(, {"op": "sharding_constraint",
      "operands": ["a"], "result": "c2", "sharding": "<@mesh, [{x}, {}]>"})"));
  CHECK(same.sharding("a") == R"(<@mesh, [{"x"}, {}]>)");
}

TEST_CASE("a chain of sharding_constraints: the input's other uses read the last constraint") {
  // Shardy's apply_sharding_constraints.mlir @chain_of_two_sharding_constraints:
  // a's head constraint shards a; the add reads the chain's end instead.
  auto chain = [&](const std::string &firstExtraUse) {
    return propagate(graphJson(kSpecialOpsMesh, R"({"name": "p", "type": "tensor<8x8xf32>"})",
                               R"({"op": "add", "operands": ["p", "p"], "result": "a"},
                     {"op": "sharding_constraint", "operands": ["a"], "result": "c1",
                      "sharding": "<@mesh, [{x}, {}]>"},
                     {"op": "sharding_constraint", "operands": ["c1"], "result": "c2",
                      "sharding": "<@mesh, [{}, {y}]>"},
                     {"op": "add", "operands": ["a", "a"], "result": "n"})" +
                                   firstExtraUse,
                               R"({"value": "c2"}, {"value": "n"})"));
  };
  auto p = chain("");
  CHECK(p.sharding("a") == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(p.sharding("n") == R"(<@mesh, [{}, {"y"}]>)");
  // @first_constraint_in_chain_has_multiple_uses: c1 read twice ends the
  // chain at c1 (length 1): n reads a again.
  auto broken = chain(R"(, {"op": "negate", "operands": ["c1"], "result": "m"})");
  CHECK(broken.sharding("n") == R"(<@mesh, [{"x"}, {}]>)");
}

TEST_CASE("sharding_group members end with one sharding") {
  auto p = propagate(
      graphJson(kSpecialOpsMesh,
                R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {?}]>"},
         {"name": "b", "type": "tensor<8x8xf32>"})",
                R"({"op": "tanh", "operands": ["a"], "result": "ta"},
         {"op": "tanh", "operands": ["b"], "result": "tb"},
         {"op": "sharding_group", "operands": ["ta"], "group_id": 3},
         {"op": "sharding_group", "operands": ["tb"], "group_id": 3},
         {"op": "negate", "operands": ["tb"], "result": "nb", "sharding": "<@mesh, [{?}, {y}]>"})",
                R"({"value": "nb"})"));
  CHECK(p.sharding("ta") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.sharding("tb") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.sharding("b") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.result.warnings.empty());
}

TEST_CASE("sharding_group with conflicting initial shardings warns and keeps both") {
  auto p = propagate(
      graphJson(kSpecialOpsMesh,
                R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {}]>"},
         {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{y}, {}]>"})",
                R"({"op": "sharding_group", "operands": ["a"], "group_id": 0},
         {"op": "sharding_group", "operands": ["b"], "group_id": 0},
         {"op": "add", "operands": ["a", "b"], "result": "c"})",
                R"({"value": "c"})"));
  REQUIRE(p.result.warnings.size() == 1);
  CHECK(p.result.warnings[0].find("sharding_group 0") != std::string::npos);
  CHECK(p.sharding("a") == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(p.sharding("b") == R"(<@mesh, [{"y"}, {}]>)");
}

TEST_CASE("groups sharing a value are unified") {
  auto p =
      propagate(graphJson(kSpecialOpsMesh,
                          R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{x}]>"},
         {"name": "b", "type": "tensor<8xf32>"}, {"name": "c", "type": "tensor<8xf32>"})",
                          R"({"op": "sharding_group", "operands": ["a"], "group_id": 0},
         {"op": "sharding_group", "operands": ["b"], "group_id": 0},
         {"op": "sharding_group", "operands": ["b"], "group_id": 1},
         {"op": "sharding_group", "operands": ["c"], "group_id": 1})",
                          ""));
  CHECK(p.sharding("c") == R"(<@mesh, [{"x"}]>)");
  CHECK(p.origin("c") == "group:0");
}

TEST_CASE("propagation_barrier lets shardings cross only in its allowed direction") {
  auto run = [](const std::string &direction) {
    return propagate(graphJson(
        kSpecialOpsMesh,
        R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{x, ?}]>"})",
        R"({"op": "propagation_barrier", "operands": ["a"], "result": "b", "allowed_direction": ")" +
            direction + R"("},
           {"op": "negate", "operands": ["b"], "result": "c", "sharding": "<@mesh, [{?}]>"},
           {"op": "negate", "operands": ["c"], "result": "d", "sharding": "<@mesh, [{x, y}]>"})",
        R"({"value": "d"})"));
  };
  auto forward = run("FORWARD");
  CHECK(forward.sharding("b") == R"(<@mesh, [{"x", "y"}]>)"); // from d, backward through c
  CHECK(forward.sharding("a") == R"(<@mesh, [{"x"}]>)");      // y may not go back
  auto both = run("BOTH");
  CHECK(both.sharding("a") == R"(<@mesh, [{"x", "y"}]>)");
  auto none = run("NONE");
  CHECK(none.sharding("a") == R"(<@mesh, [{"x"}]>)");
}

TEST_CASE("output shardings flow back into the returned value") {
  auto p = propagate(graphJson(kSpecialOpsMesh, R"({"name": "a", "type": "tensor<8x8xf32>"})",
                               R"({"op": "exponential", "operands": ["a"], "result": "e"})",
                               R"({"value": "e", "sharding": "<@mesh, [{y}, {x}]>"})"));
  CHECK(p.sharding("a") == R"(<@mesh, [{"y"}, {"x"}]>)");
  CHECK(p.origin("e") == "op:/outputs/0");
}

TEST_CASE("replicated axes and closed dims are never used") {
  auto p = propagate(
      graphJson(kSpecialOpsMesh,
                R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
         {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}, {?}], replicated={y}>"},
         {"name": "c", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{}, {?}]>"})",
                R"({"op": "add", "operands": ["a", "b"], "result": "s"},
         {"op": "add", "operands": ["a", "c"], "result": "t"})",
                R"({"value": "s"}, {"value": "t"})"));
  CHECK(p.sharding("b") == R"(<@mesh, [{"x"}, {}], replicated={"y"}>)");
  CHECK(p.sharding("c") == R"(<@mesh, [{}, {"y"}]>)");
}

TEST_CASE("a forward barrier passes what comes from its operand but not what comes back") {
  auto p = propagate(
      graphJson(
          R"({"name": "a", "size": 2}, {"name": "b", "size": 2}, {"name": "c", "size": 2})",
          R"({"name": "in", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{a, ?}, {c, ?}]>"})",
          R"({"op": "add", "operands": ["in", "in"], "result": "s"},
         {"op": "propagation_barrier", "operands": ["s"], "result": "bar", "allowed_direction": "FORWARD"},
         {"op": "add", "operands": ["bar", "bar"], "result": "u"},
         {"op": "add", "operands": ["bar", "bar"], "result": "w"})",
          R"({"value": "u", "sharding": "<@mesh, [{a, b, ?}, {?}]>"}, {"value": "w"})"),
      PropagationStrategy::Basic);
  CHECK(p.sharding("s") == R"(<@mesh, [{"a"}, {"c"}]>)");
  CHECK(p.sharding("bar") == R"(<@mesh, [{"a", "b"}, {"c"}]>)");
  CHECK(p.sharding("w") == R"(<@mesh, [{"a", "b"}, {"c"}]>)");
  CHECK(p.output(0) == R"(<@mesh, [{"a", "b"}, {"c"}]>)");
}

TEST_CASE("a closed result dim of a dot stays empty while its open dim is filled") {
  auto p = propagate(
      graphJson(
          R"({"name": "a", "size": 2}, {"name": "b", "size": 2})",
          R"({"name": "l", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{a}, {}]>"},
         {"name": "r", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{}, {b}]>"})",
          R"({"op": "dot_general", "operands": ["l", "r"], "result": "d", "sharding": "<@mesh, [{}, {?}]>",
          "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]})",
          R"({"value": "d"})"),
      PropagationStrategy::Basic);
  CHECK(p.sharding("d") == R"(<@mesh, [{}, {"b"}]>)");
}

TEST_CASE("a dangling sharding_constraint describes its input") {
  auto p = propagate(graphJson(kSpecialOpsMesh, R"({"name": "a", "type": "tensor<8x8xf32>"})",
                               R"({"op": "tanh", "operands": ["a"], "result": "t"},
         {"op": "sharding_constraint", "operands": ["t"], "result": "c", "sharding": "<@mesh, [{x}, {}]>"},
         {"op": "negate", "operands": ["t"], "result": "n"})",
                               R"({"value": "n"})"));
  CHECK(p.sharding("t") == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(p.origin("t") == "constraint:/ops/1");
  CHECK(p.sharding("n") == R"(<@mesh, [{"x"}, {}]>)");
}

TEST_CASE("a constant with several users is copied per use: users do not link through it") {
  // After Shardy's propagation_pipeline.mlir @split_constants_different_sharding:
  // the dot reads the constant twice; with one shared tensor its lhs ("a" on
  // dim 0) and rhs ("b" on dim 0) would collide, so the dot would get one
  // axis only. Copies give the dot both, and the returned constant stays
  // replicated.
  auto p = propagate(
      graphJson(R"({"name": "a", "size": 2}, {"name": "b", "size": 2})",
                R"({"name": "x", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{a}, {b}]>"})",
                R"({"op": "constant", "value": 1.0, "type": "tensor<8x16xf32>", "result": "k"},
                                  {"op": "broadcast_in_dim", "operands": ["k"], "result": "kb",
                                   "type": "tensor<8x16xf32>", "broadcast_dimensions": [0, 1]},
                                  {"op": "dot_general", "operands": ["kb", "kb"], "result": "d",
                                   "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [1]},
                                  {"op": "add", "operands": ["d", "x"], "result": "s"})",
                R"({"value": "kb"}, {"value": "s"})"));
  CHECK(p.sharding("d") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(p.sharding("kb") == R"(<@mesh, [{}, {}]>)");
  CHECK(p.sharding("k") == R"(<@mesh, [{}, {}]>)");
}
