// The sharding rule of every op, and propagation through it (basic strategy,
// so each test shows exactly what the rule lets through).
#include <doctest/doctest.h>

#include "compiler/propagate/ShardingRules.h"
#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kRuleMesh = R"({"name": "x", "size": 2}, {"name": "y", "size": 4})";

Propagated basic(const std::string &inputs, const std::string &ops, const std::string &outputs) {
  return propagate(graphJson(kRuleMesh, inputs, ops, outputs), PropagationStrategy::Basic);
}

std::string ruleOf(const std::string &inputs, const std::string &ops) {
  Graph graph = loadGraph(graphJson(kRuleMesh, inputs, ops, ""));
  return printOpShardingRule(shardingRuleFor(graph, graph.main.ops.back()));
}

} // namespace

TEST_CASE("elementwise ops share every dim in both directions") {
  auto p = basic(R"({"name": "a", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x}, {?}]>"},
                    {"name": "b", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{?}, {y}]>"})",
                 R"({"op": "add", "operands": ["a", "b"], "result": "c"},
                    {"op": "tanh", "operands": ["c"], "result": "d"})",
                 R"({"value": "d"})");
  CHECK(p.sharding("c") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.sharding("d") == R"(<@mesh, [{"x"}, {"y"}]>)");
  // a's dim 1 is open: it takes y from b; b's open dim 0 takes x.
  CHECK(p.sharding("a") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.sharding("b") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.output(0) == R"(<@mesh, [{"x"}, {"y"}]>)");
}

TEST_CASE("dot_general: batch and free dims pass through, contracting dims are reduction") {
  CHECK(
      ruleOf(
          R"({"name": "a", "type": "tensor<2x8x16xf32>"}, {"name": "b", "type": "tensor<2x16x4xf32>"})",
          R"({"op": "dot_general", "operands": ["a", "b"], "result": "c",
                   "lhs_batching_dimensions": [0], "rhs_batching_dimensions": [0],
                   "lhs_contracting_dimensions": [2], "rhs_contracting_dimensions": [1]})") ==
      "([i, j, l], [i, l, k])->([i, j, k]) {i=2, j=8, k=4, l=16} reduction={l}");
  auto p = basic(R"({"name": "a", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
                    {"name": "b", "type": "tensor<16x4xf32>"})",
                 R"({"op": "dot_general", "operands": ["a", "b"], "result": "c",
                     "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]})",
                 R"({"value": "c"})");
  CHECK(p.sharding("b") == R"(<@mesh, [{"y"}, {}]>)");
  CHECK(p.sharding("c") == R"(<@mesh, [{"x"}, {}]>)");
}

TEST_CASE("transpose permutes dims") {
  auto p =
      basic(R"({"name": "a", "type": "tensor<8x16x4xf32>", "sharding": "<@mesh, [{x}, {}, {y}]>"})",
            R"({"op": "transpose", "operands": ["a"], "result": "t", "permutation": [2, 0, 1]})",
            R"({"value": "t"})");
  CHECK(p.sharding("t") == R"(<@mesh, [{"y"}, {"x"}, {}]>)");
}

TEST_CASE("reshape splits a sharded dim into sub-axes and merges dims") {
  CHECK(
      ruleOf(R"({"name": "a", "type": "tensor<8xf32>"})",
             R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<2x4xf32>"})") ==
      "([ij])->([i, j]) {i=2, j=4}");
  auto split =
      basic(R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{y}]>"})",
            R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<2x4xf32>"})",
            R"({"value": "r"})");
  CHECK(split.sharding("r") == R"(<@mesh, [{"y":(1)2}, {"y":(2)2}]>)");
  auto merge =
      basic(R"({"name": "a", "type": "tensor<2x4xf32>", "sharding": "<@mesh, [{x}, {y}]>"})",
            R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<8xf32>"})",
            R"({"value": "r"})");
  CHECK(merge.sharding("r") == R"(<@mesh, [{"x", "y"}]>)");
  // Backward: the merged sharding splits again onto the two dims.
  auto back = basic(R"({"name": "a", "type": "tensor<2x4xf32>"})",
                    R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<8xf32>",
                        "sharding": "<@mesh, [{x, y}]>"})",
                    R"({"value": "r"})");
  CHECK(back.sharding("a") == R"(<@mesh, [{"x"}, {"y"}]>)");
}

TEST_CASE("reshape of swapped dims: factors by gcd across dims that do not line up (Shardy)") {
  auto reshape = [](const std::string &in, const std::string &out) {
    return ruleOf(R"({"name": "a", "type": "tensor<)" + in + R"(xf32>"})",
                  R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<)" + out +
                      R"(xf32>"})");
  };
  // 6x4 -> 4x6: the major 2 is shared; then 3 (in) against 2 (out) diverge,
  // and the output catches up with 3 so that the last 2 is shared again.
  CHECK(reshape("6x4", "4x6") == "([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}");
  CHECK(reshape("3x2", "2x3") == "([i, l])->([j, k]) {i=3, j=2, k=3, l=2}");
  CHECK(reshape("5x2x5x3", "5x3x5x2") ==
        "([i, j, l, n])->([i, k, m, o]) {i=5, j=2, k=3, l=5, m=5, n=3, o=2}");
  CHECK(reshape("2x3x8", "3x4x4") == "([i, k, mn])->([j, lm, n]) {i=2, j=3, k=3, l=2, m=2, n=4}");
  CHECK(reshape("3x4x4", "2x3x8") == "([i, lm, n])->([j, k, mn]) {i=3, j=2, k=3, l=2, m=2, n=4}");
  CHECK(reshape("4x7x5x8", "14x10x8") ==
        "([ij, l, n, o])->([ik, mn, o]) {i=2, j=2, k=7, l=7, m=2, n=5, o=8}");
  // Size-1 dims take no factor, wherever they are.
  CHECK(reshape("1x8x4", "8x1x4x1") == "([1, i, j])->([i, 1, j, 1]) {i=8, j=4}");
}

TEST_CASE("reshape of swapped dims: the shared major factor propagates, the rest does not") {
  auto p =
      basic(R"({"name": "a", "type": "tensor<6x4xf32>", "sharding": "<@mesh, [{x}, {y}]>"})",
            R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<4x6xf32>"})",
            R"({"value": "r"})");
  // x (2) is the shared factor i; y shards the operand-only factors m, n.
  CHECK(p.sharding("r") == R"(<@mesh, [{"x"}, {}]>)");
  auto back =
      basic(R"({"name": "a", "type": "tensor<6x4xf32>"})",
            R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<4x6xf32>",
                        "sharding": "<@mesh, [{y}, {x}]>"})",
            R"({"value": "r"})");
  // y (4) splits: its major 2 is the shared factor, the rest would need k.
  CHECK(back.sharding("a") == R"(<@mesh, [{"y":(1)2}, {}]>)");
}

TEST_CASE("the partitioner's reshape rule: factors one side lacks need replication") {
  // n (the minor 2 of both dim 1s) is shared, so it stays pass-through.
  Graph graph = loadGraph(graphJson(
      kRuleMesh, R"({"name": "a", "type": "tensor<6x4xf32>"})",
      R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<4x6xf32>"})", ""));
  const Op &op = graph.main.ops.back();
  CHECK(printOpShardingRule(partitioningRuleFor(graph, op)) ==
        "([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2} need_replication={j, k, l, m}");
  // Other ops keep their rule.
  Graph add = loadGraph(graphJson(kRuleMesh, R"({"name": "a", "type": "tensor<6x4xf32>"})",
                                  R"({"op": "add", "operands": ["a", "a"], "result": "r"})", ""));
  CHECK(partitioningRuleFor(add, add.main.ops.back()) == shardingRuleFor(add, add.main.ops.back()));
}

TEST_CASE("size-0 dims: a factor of size 0 shared like any other; a reshape without elements has "
          "no rule") {
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<2x0x4xf32>"})",
               R"({"op": "add", "operands": ["a", "a"], "result": "c"})") ==
        "([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}");
  auto p = basic(R"({"name": "a", "type": "tensor<8x0xf32>", "sharding": "<@mesh, [{}, {y}]>"})",
                 R"({"op": "add", "operands": ["a", "a"], "result": "c"})", R"({"value": "c"})");
  CHECK(p.sharding("c") == R"(<@mesh, [{}, {"y"}]>)");
  Graph graph = loadGraph(graphJson(
      kRuleMesh, R"({"name": "a", "type": "tensor<4x0xf32>", "sharding": "<@mesh, [{x}, {}]>"})",
      R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<0x8xf32>"})", ""));
  CHECK_FALSE(hasShardingRule(graph, graph.main.ops.back()));
  auto empty =
      basic(R"({"name": "a", "type": "tensor<4x0xf32>", "sharding": "<@mesh, [{x}, {}]>"})",
            R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<0x8xf32>"})",
            R"({"value": "r"})");
  CHECK(empty.sharding("r") == R"(<@mesh, [{}, {}]>)");
}

TEST_CASE("broadcast_in_dim maps operand dims; expanded and new dims are the result's own") {
  CHECK(
      ruleOf(
          R"({"name": "a", "type": "tensor<1x8xf32>"})",
          R"({"op": "broadcast_in_dim", "operands": ["a"], "result": "b", "type": "tensor<4x3x8xf32>",
                   "broadcast_dimensions": [1, 2]})") == "([1, k])->([i, j, k]) {i=4, j=3, k=8}");
  auto p = basic(
      R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{y}]>"})",
      R"({"op": "broadcast_in_dim", "operands": ["a"], "result": "b", "type": "tensor<4x8xf32>",
                     "broadcast_dimensions": [1]})",
      R"({"value": "b"})");
  CHECK(p.sharding("b") == R"(<@mesh, [{}, {"y"}]>)");
}

TEST_CASE("reduce: reduced dims are reduction factors, kept dims pass through") {
  CHECK(
      ruleOf(
          R"({"name": "a", "type": "tensor<8x16xf32>"}, {"name": "z", "type": "tensor<f32>"})",
          R"({"op": "reduce", "operands": ["a", "z"], "result": "r", "dimensions": [1], "reducer": "add"})") ==
      "([i, j], [])->([i]) {i=8, j=16} reduction={j}");
  auto p = basic(
      R"({"name": "a", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
                    {"name": "z", "type": "tensor<f32>"})",
      R"({"op": "reduce", "operands": ["a", "z"], "result": "r", "dimensions": [1], "reducer": "add"})",
      R"({"value": "r"})");
  CHECK(p.sharding("r") == R"(<@mesh, [{"x"}]>)");
}

TEST_CASE("reduce of several inputs: the inputs share every factor (Shardy's registry test)") {
  // op_sharding_rule_registry.mlir, reduce_multiple_results.
  const std::string inputs =
      R"({"name": "a", "type": "tensor<2x64x13xf32>"}, {"name": "b", "type": "tensor<2x64x13xi32>"},
         {"name": "z", "type": "tensor<f32>"}, {"name": "c", "type": "tensor<i32>"})";
  const std::string reduce = R"({"op": "reduce", "operands": ["a", "b", "z", "c"],
      "results": ["r", "s"], "dimensions": [0, 2],
      "body": {"args": [{"name": "p", "type": "tensor<f32>"}, {"name": "q", "type": "tensor<i32>"},
                        {"name": "u", "type": "tensor<f32>"}, {"name": "v", "type": "tensor<i32>"}],
               "ops": [{"op": "add", "operands": ["p", "u"], "result": "pu"},
                       {"op": "add", "operands": ["q", "v"], "result": "qv"}],
               "return": ["pu", "qv"]}})";
  CHECK(ruleOf(inputs, reduce) ==
        "([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} reduction={i, k}");
  // One input's axes reach the other input and both results.
  auto p = basic(
      R"({"name": "a", "type": "tensor<2x64x13xf32>", "sharding": "<@mesh, [{}, {y}, {}]>"},
         {"name": "b", "type": "tensor<2x64x13xi32>"},
         {"name": "z", "type": "tensor<f32>"}, {"name": "c", "type": "tensor<i32>"})",
      reduce, R"({"value": "r"}, {"value": "s"})");
  CHECK(p.sharding("b") == R"(<@mesh, [{}, {"y"}, {}]>)");
  CHECK(p.sharding("r") == R"(<@mesh, [{"y"}]>)");
  CHECK(p.sharding("s") == R"(<@mesh, [{"y"}]>)");
}

TEST_CASE("permutation factors: concatenate's dim of slices, slice, pad, reverse") {
  // Shardy: concatenated slices (all of them, or of one tensor) permute the
  // dim; other pieces need it replicated.
  CHECK(ruleOf(
            R"({"name": "a", "type": "tensor<4x8xf32>"}, {"name": "b", "type": "tensor<4x8xf32>"})",
            R"({"op": "concatenate", "operands": ["a", "b"], "result": "c", "dimension": 0})") ==
        "([i, j], [i, j])->([i, j]) {i=8, j=8} need_replication={i}");
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<4x8xf32>"})",
               R"({"op": "slice", "operands": ["a"], "result": "s", "start_indices": [0, 0],
                   "limit_indices": [2, 8]},
                  {"op": "concatenate", "operands": ["s", "a"], "result": "c", "dimension": 0})") ==
        "([i, j], [i, j])->([i, j]) {i=6, j=8} permutation={i}");
  CHECK(ruleOf(
            R"({"name": "a", "type": "tensor<4x8xf32>"}, {"name": "b", "type": "tensor<4x8xf32>"})",
            R"({"op": "slice", "operands": ["a"], "result": "s", "start_indices": [0, 0],
                   "limit_indices": [2, 8]},
                  {"op": "concatenate", "operands": ["s", "b"], "result": "c", "dimension": 0})") ==
        "([i, j], [i, j])->([i, j]) {i=6, j=8} need_replication={i}");
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<8x8xf32>"})",
               R"({"op": "slice", "operands": ["a"], "result": "s", "start_indices": [0, 2],
                   "limit_indices": [8, 6]})") == "([i, j])->([i, j]) {i=8, j=8} permutation={j}");
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<8x8xf32>"}, {"name": "z", "type": "tensor<f32>"})",
               R"({"op": "pad", "operands": ["a", "z"], "result": "p", "edge_padding_low": [1, 0],
                   "edge_padding_high": [1, 0], "interior_padding": [0, 0]})") ==
        "([i, j], [])->([i, j]) {i=8, j=8} permutation={i}");
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<8x8xf32>"})",
               R"({"op": "reverse", "operands": ["a"], "result": "r", "dimensions": [1]})") ==
        "([i, j])->([i, j]) {i=8, j=8} permutation={j}");
  auto p = basic(R"({"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {y}]>"})",
                 R"({"op": "slice", "operands": ["a"], "result": "s", "start_indices": [0, 2],
                     "limit_indices": [8, 6]})",
                 R"({"value": "s"})");
  CHECK(p.sharding("s") == R"(<@mesh, [{"x"}, {"y"}]>)");
}

TEST_CASE("custom_call: its sharding_rule is used; without one nothing crosses it") {
  std::string inputs =
      R"({"name": "a", "type": "tensor<8x4xf32>", "sharding": "<@mesh, [{x}, {y}]>"})";
  auto ruled =
      basic(inputs,
            R"({"op": "custom_call", "operands": ["a"], "result": "c", "type": "tensor<4x8xf32>",
                         "call_target_name": "swap", "sharding_rule": "([i, j])->([j, i]) {i=8, j=4}"})",
            R"({"value": "c"})");
  CHECK(ruled.sharding("c") == R"(<@mesh, [{"y"}, {"x"}]>)");
  auto opaque =
      basic(inputs,
            R"({"op": "custom_call", "operands": ["a"], "result": "c", "type": "tensor<8x4xf32>",
                          "call_target_name": "f"})",
            R"({"value": "c"})");
  CHECK(opaque.sharding("c") == R"(<@mesh, [{}, {}]>)");
  CHECK(opaque.origin("c") == "default");
}

TEST_CASE("rules of constants, iota and the other pointwise ops") {
  CHECK(
      ruleOf("",
             R"({"op": "iota", "result": "i", "type": "tensor<4x8xi32>", "iota_dimension": 1})") ==
      "()->([i, j]) {i=4, j=8}");
  CHECK(ruleOf("", R"({"op": "constant", "result": "c", "type": "tensor<4xf32>", "value": 1.0})") ==
        "()->([i]) {i=4}");
  std::string inputs =
      R"({"name": "p", "type": "tensor<i1>"}, {"name": "a", "type": "tensor<4x8xf32>"},
                          {"name": "b", "type": "tensor<4x8xf32>"})";
  CHECK(ruleOf(inputs, R"({"op": "select", "operands": ["p", "a", "b"], "result": "s"})") ==
        "([], [i, j], [i, j])->([i, j]) {i=4, j=8}");
  CHECK(ruleOf(inputs, R"({"op": "compare", "operands": ["a", "b"], "result": "c",
                           "comparison_direction": "LT"})") ==
        "([i, j], [i, j])->([i, j]) {i=4, j=8}");
  CHECK(
      ruleOf(inputs,
             R"({"op": "convert", "operands": ["a"], "result": "c", "type": "tensor<4x8xi32>"})") ==
      "([i, j])->([i, j]) {i=4, j=8}");
  CHECK(ruleOf(inputs, R"({"op": "sharding_constraint", "operands": ["a"], "result": "c",
                           "sharding": "<@mesh, [{x}, {}]>"})") == "([i, j])->([i, j]) {i=4, j=8}");
  CHECK(ruleOf(inputs, R"({"op": "propagation_barrier", "operands": ["a"], "result": "c",
                           "allowed_direction": "NONE"})") == "([i, j])->([i, j]) {i=4, j=8}");
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<1x8xf32>"})",
               R"({"op": "negate", "operands": ["a"], "result": "n"})") ==
        "([1, i])->([1, i]) {i=8}");
}

TEST_CASE("rules of collectives: resized dims need replication, the others pass through") {
  auto bodyRule = [](const std::string &bodyOp, const std::string &) {
    Graph graph =
        loadGraph(graphJson(kRuleMesh, R"({"name": "a", "type": "tensor<8x16xf32>"})",
                            R"({"op": "manual_computation", "operands": ["a"], "results": ["r"],
            "in_shardings": ["<@mesh, [{x}, {y}]>"], "out_shardings": ["<@mesh, [{x}, {y}]>"],
            "manual_axes": ["x", "y"],
            "body": {"args": [{"name": "l", "type": "tensor<4x4xf32>"}],
                     "ops": [)" +
                                bodyOp + R"(],
                     "return": ["o"]}})",
                            ""));
    return printOpShardingRule(shardingRuleFor(graph, graph.main.ops[0].body()->ops[0]));
  };
  CHECK(
      bodyRule(
          R"({"op": "all_reduce", "operands": ["l"], "result": "o", "axes": ["x"], "reducer": "add"})",
          "") == "([i, j])->([i, j]) {i=4, j=4}");
  CHECK(
      bodyRule(
          R"({"op": "collective_permute", "operands": ["l"], "result": "o", "axes": ["y"], "shift": 1})",
          "") == "([i, j])->([i, j]) {i=4, j=4}");
  CHECK(
      bodyRule(
          R"({"op": "all_gather", "operands": ["l"], "result": "g", "axes": ["x"], "dimension": 0},
                    {"op": "slice", "operands": ["g"], "result": "o", "start_indices": [0, 0], "limit_indices": [4, 4]})",
          "") == "([i, k])->([j, k]) {i=4, j=8, k=4} need_replication={i, j}");
  CHECK(bodyRule(R"({"op": "all_to_all", "operands": ["l"], "result": "o", "axes": ["y"],
                     "split_dimension": 1, "concat_dimension": 0})",
                 "") == "([i, k])->([j, 1]) {i=4, j=16, k=4} need_replication={i, j, k}");
  CHECK(bodyRule(R"({"op": "reduce_scatter", "operands": ["l"], "result": "o", "axes": ["y"],
                     "dimension": 1, "reducer": "add"})",
                 "") == "([i, j])->([i, 1]) {i=4, j=4} need_replication={j}");
}

TEST_CASE("Shardy's form of a rule: unit factors, Shardy's numbering, no rule where it has none") {
  Graph graph = loadGraph(graphJson(
      kRuleMesh,
      R"({"name": "a", "type": "tensor<1x8xf32>"}, {"name": "b", "type": "tensor<8x16xf32>"})",
      R"({"op": "negate", "operands": ["a"], "result": "n"},
         {"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<8x1xf32>"},
         {"op": "constant", "value": 0.0, "result": "c", "type": "tensor<f32>"},
         {"op": "propagation_barrier", "operands": ["a"], "result": "p", "allowed_direction": "NONE"},
         {"op": "sharding_constraint", "operands": ["a"], "result": "s", "sharding": "<@mesh, [{}, {x}]>"},
         {"op": "custom_call", "operands": ["a"], "result": "u", "call_target_name": "f", "type": "tensor<1x8xf32>"},
         {"op": "manual_computation", "operands": ["b"], "results": ["o1", "o2"],
          "in_shardings": ["<@mesh, [{x}, {y}]>"],
          "out_shardings": ["<@mesh, [{x}, {y}]>", "<@mesh, [{x}, {y}]>"], "manual_axes": ["x", "y"],
          "body": {"args": [{"name": "l", "type": "tensor<4x4xf32>"}],
                   "ops": [{"op": "all_to_all", "operands": ["l"], "result": "t", "axes": ["y"],
                            "split_dimension": 1, "concat_dimension": 0},
                           {"op": "reshape", "operands": ["t"], "result": "t2", "type": "tensor<4x4xf32>"},
                           {"op": "reduce_scatter", "operands": ["l"], "result": "rs", "axes": ["y"],
                            "dimension": 1, "reducer": "add"},
                           {"op": "broadcast_in_dim", "operands": ["rs"], "result": "rs2",
                            "broadcast_dimensions": [0, 1], "type": "tensor<4x4xf32>"}],
                   "return": ["t2", "rs2"]}})",
      ""));
  auto shardy = [&](const Op &op) {
    std::optional<OpShardingRule> rule = shardyShardingRule(graph, op);
    return rule ? printOpShardingRule(*rule) : "none";
  };
  const auto &ops = graph.main.ops;
  CHECK(shardy(ops[0]) == "([i, j])->([i, j]) {i=1, j=8}");
  CHECK(printOpShardingRule(shardingRuleFor(graph, ops[0])) == "([1, i])->([1, i]) {i=8}");
  CHECK(shardy(ops[1]) == "([i, j])->([j, k]) {i=1, j=8, k=1}");
  CHECK(shardy(ops[2]) == "none");
  CHECK(shardy(ops[3]) == "none");
  CHECK(shardy(ops[4]) == "([i, j])->([i, j]) {i=1, j=8}");
  CHECK(shardy(ops[5]) == "none"); // a custom_call without a rule
  CHECK(shardy(ops[6]) == "none");
  // Collectives: the pass-through dims first, then operand and result
  // factors of each resized dim (all_to_all's split dim before its concat
  // dim), as Shardy's registry adds them.
  const auto &body = ops[6].body()->ops;
  CHECK(shardy(body[0]) ==
        "([k, i])->([l, j]) {i=4, j=1, k=4, l=16} need_replication={i, j, k, l}");
  CHECK(shardy(body[2]) == "([i, j])->([i, k]) {i=4, j=4, k=1} need_replication={j, k}");
  // The broadcast expands a size-1 dim: its unit factor comes before the
  // result's factor.
  CHECK(shardy(body[3]) == "([i, j])->([i, k]) {i=4, j=1, k=4}");
}

TEST_CASE("reshape: several factors per dim, and a partially sharded major factor") {
  CHECK(
      ruleOf(
          R"({"name": "a", "type": "tensor<4x12xf32>"})",
          R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<4x2x3x2xf32>"})") ==
      "([i, jkl])->([i, j, k, l]) {i=4, j=2, k=3, l=2}");
  CHECK(
      ruleOf(
          R"({"name": "a", "type": "tensor<8x4x5xf32>"})",
          R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<2x16x5xf32>"})") ==
      "([ij, k, l])->([i, jk, l]) {i=2, j=4, k=4, l=5}");
  // 4x4 on [{x}, {z}] (x=2) merged into 16: x covers only half of the major
  // factor, so z would need a strided view and stays behind.
  auto p = propagate(
      graphJson(R"({"name": "x", "size": 2}, {"name": "z", "size": 2})",
                R"({"name": "a", "type": "tensor<4x4xf32>", "sharding": "<@mesh, [{x}, {z}]>"})",
                R"({"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<16xf32>"})",
                R"({"value": "r"})"),
      PropagationStrategy::Basic);
  CHECK(p.sharding("r") == R"(<@mesh, [{"x"}]>)");
}

TEST_CASE("dynamic_slice and dynamic_update_slice: sliced dims need replication") {
  const std::string inputs = R"({"name": "a", "type": "tensor<8x6xf32>"},
                                {"name": "u", "type": "tensor<8x2xf32>"},
                                {"name": "i", "type": "tensor<i32>"})";
  CHECK(ruleOf(inputs, R"({"op": "dynamic_slice", "operands": ["a", "i", "i"], "result": "s",
                           "slice_sizes": [8, 3]})") ==
        "([i, j], [], [])->([i, j]) {i=8, j=6} need_replication={j} blocked_propagation={j}");
  CHECK(ruleOf(inputs, R"({"op": "dynamic_update_slice", "operands": ["a", "u", "i", "i"],
                           "result": "d"})") ==
        "([i, j], [i, k], [], [])->([i, j]) {i=8, j=6, k=2} need_replication={k}");
  // The batch dim's sharding passes through; the sliced dim's does not.
  auto p = basic(R"({"name": "a", "type": "tensor<8x6xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
                    {"name": "i", "type": "tensor<i32>"})",
                 R"({"op": "dynamic_slice", "operands": ["a", "i", "i"], "result": "s",
                     "slice_sizes": [8, 3]})",
                 R"({"value": "s"})");
  CHECK(p.sharding("s") == R"(<@mesh, [{"x"}, {}]>)");
  // A cache keeps its sharding through the write, sliced dim included.
  auto q =
      basic(R"({"name": "c", "type": "tensor<8x6xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
                    {"name": "u", "type": "tensor<1x6xf32>"}, {"name": "i", "type": "tensor<i32>"})",
            R"({"op": "dynamic_update_slice", "operands": ["c", "u", "i", "i"], "result": "w"})",
            R"({"value": "w"})");
  CHECK(q.sharding("w") == R"(<@mesh, [{"x"}, {"y"}]>)");
}

TEST_CASE("bitcast_convert: a width change's minor dim needs replication; shifts are pointwise") {
  const std::string inputs = R"({"name": "w", "type": "tensor<4x2xui64>"},
                                {"name": "n", "type": "tensor<4x2x2xui32>"})";
  CHECK(ruleOf(inputs, R"({"op": "bitcast_convert", "operands": ["n"], "result": "r",
                           "type": "tensor<4x2xf64>"})") ==
        "([i, j, k])->([i, j]) {i=4, j=2, k=2} need_replication={k}");
  CHECK(ruleOf(inputs, R"({"op": "bitcast_convert", "operands": ["w"], "result": "r",
                           "type": "tensor<4x2x2xf32>"})") ==
        "([i, j])->([i, j, k]) {i=4, j=2, k=2} need_replication={k}");
  CHECK(ruleOf(inputs, R"({"op": "bitcast_convert", "operands": ["w"], "result": "r",
                           "type": "tensor<4x2xi64>"})") == "([i, j])->([i, j]) {i=4, j=2}");
  CHECK(ruleOf(inputs, R"({"op": "shift_left", "operands": ["n", "n"], "result": "r"})") ==
        "([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=2, k=2}");
  // The kept dims' sharding passes through; the pieces' dim stays whole.
  auto p = basic(R"({"name": "w", "type": "tensor<8x2xui64>", "sharding": "<@mesh, [{x}, {y}]>"})",
                 R"({"op": "bitcast_convert", "operands": ["w"], "result": "r",
                     "type": "tensor<8x2x2xui32>"})",
                 R"({"value": "r"})");
  CHECK(p.sharding("r") == R"(<@mesh, [{"x"}, {"y"}, {}]>)");
}

TEST_CASE("gather and scatter: Shardy's factors, and what propagates through them") {
  const std::string inputs = R"({"name": "t", "type": "tensor<32x8xf32>"},
                                {"name": "i", "type": "tensor<4x1xi32>"},
                                {"name": "u", "type": "tensor<4x8xf32>"})";
  // Batch dim (indices, result), a column taken whole, the collapsed row a
  // reduction, the index vector dim (size 1: no factor, printed 1).
  CHECK(ruleOf(inputs, R"({"op": "gather", "operands": ["t", "i"], "result": "r",
      "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                            "start_index_map": [0], "index_vector_dim": 1},
      "slice_sizes": [1, 8]})") == "([k, j], [i, 1])->([i, j]) {i=4, j=8, k=32} reduction={k}");
  const std::string add = R"("update_computation": {
      "args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
      "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}], "return": ["s"]})";
  CHECK(ruleOf(inputs, R"({"op": "scatter", "operands": ["t", "i", "u"], "result": "r",
      "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                    "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
      )" + add + "}") == "([k, j], [i, 1], [i, j])->([k, j]) {i=4, j=8, k=32} reduction={i}");
  // The tokens' batch sharding and the table's column sharding reach the
  // rows.
  auto p = basic(R"({"name": "t", "type": "tensor<32x8xf32>", "sharding": "<@mesh, [{}, {y}]>"},
                    {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@mesh, [{x}, {}]>"})",
                 R"({"op": "gather", "operands": ["t", "i"], "result": "r",
                     "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                                           "start_index_map": [0], "index_vector_dim": 1},
                     "slice_sizes": [1, 8]})",
                 R"({"value": "r"})");
  CHECK(p.sharding("r") == R"(<@mesh, [{"x"}, {"y"}]>)");
}

TEST_CASE("window ops: windowed dims are permutation factors, a convolution is a dot per window") {
  const std::string body =
      R"({"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
    "ops": [{"op": "maximum", "operands": ["a", "b"], "result": "m"}], "return": ["m"]})";
  const std::string inputs = R"({"name": "a", "type": "tensor<8x16x6xf32>"},
                                {"name": "c", "type": "tensor<f32>"})";
  CHECK(ruleOf(inputs, R"({"op": "reduce_window", "operands": ["a", "c"], "result": "p",
                           "window_dimensions": [1, 2, 1], "window_strides": [1, 2, 1],
                           "body": )" +
                           body + "}") ==
        "([i, j, k], [])->([i, j, k]) {i=8, j=8, k=6} permutation={j}");
  CHECK(
      ruleOf(
          R"({"name": "a", "type": "tensor<4x8x8x3xf32>"}, {"name": "w", "type": "tensor<3x3x3x16xf32>"})",
          R"({"op": "convolution", "operands": ["a", "w"], "result": "y",
                   "input_batch_dimension": 0, "input_feature_dimension": 3,
                   "input_spatial_dimensions": [1, 2], "kernel_input_feature_dimension": 2,
                   "kernel_output_feature_dimension": 3, "kernel_spatial_dimensions": [0, 1],
                   "output_batch_dimension": 0, "output_feature_dimension": 3,
                   "output_spatial_dimensions": [1, 2], "padding": [[1, 1], [1, 1]]})") ==
      "([i, j, k, l], [1, 1, l, m])->([i, j, k, m]) {i=4, j=8, k=8, l=3, m=16} reduction={l} "
      "permutation={j, k}"); // 8 windows of 3: no window-size factor is left

  // Shardy propagates along permutation factors too (the partitioner then
  // keeps the pooled dim whole and reshards the result).
  auto p =
      basic(R"({"name": "a", "type": "tensor<8x16x6xf32>", "sharding": "<@mesh, [{x}, {y}, {}]>"},
                    {"name": "c", "type": "tensor<f32>"})",
            R"({"op": "reduce_window", "operands": ["a", "c"], "result": "p",
                     "window_dimensions": [1, 2, 1], "window_strides": [1, 2, 1], "body": )" +
                body + "}",
            R"({"value": "p"})");
  CHECK(p.sharding("p") == R"(<@mesh, [{"x"}, {"y"}, {}]>)");
}

TEST_CASE("sort and top_k: the sorted dim needs replication, the other dims pass through") {
  const std::string comparator = R"("comparator": {
      "args": [{"name": "l", "type": "tensor<f32>"}, {"name": "r", "type": "tensor<f32>"},
               {"name": "p", "type": "tensor<i32>"}, {"name": "q", "type": "tensor<i32>"}],
      "ops": [{"op": "compare", "operands": ["l", "r"], "result": "lt",
               "comparison_direction": "LT", "compare_type": "TOTALORDER"}],
      "return": ["lt"]})";
  const std::string sort = R"({"op": "sort", "operands": ["a", "i"], "results": ["s", "t"],
      "dimension": -1, "is_stable": true, )" +
                           comparator + "}";
  const std::string inputs =
      R"({"name": "a", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
         {"name": "i", "type": "tensor<8x16xi32>"})";
  CHECK(ruleOf(inputs, sort) ==
        "([i, j], [i, j])->([i, j], [i, j]) {i=8, j=16} need_replication={j}");
  // As in Shardy, axes cross a need-replication factor that is not
  // blocked (the partitioner gathers the sorted dim for the op itself).
  auto p = basic(inputs, sort, R"({"value": "s"}, {"value": "t"})");
  CHECK(p.sharding("i") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.sharding("s") == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(p.sharding("t") == R"(<@mesh, [{"x"}, {"y"}]>)");

  const std::string topK = R"({"op": "top_k", "operands": ["a"], "results": ["v", "k"], "k": 3})";
  CHECK(ruleOf(R"({"name": "a", "type": "tensor<8x16xf32>"})", topK) ==
        "([i, j])->([i, j], [i, j]) {i=8, j=16} need_replication={j} blocked_propagation={j}");
  // top_k's last dim is blocked: only the batch dim's axes cross.
  auto q = basic(R"({"name": "a", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x}, {y}]>"})",
                 topK, R"({"value": "v"}, {"value": "k"})");
  CHECK(q.sharding("v") == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(q.sharding("k") == R"(<@mesh, [{"x"}, {}]>)");
}

TEST_CASE("after_all: no dims, no factors; Shardy's registry gives it no rule") {
  Graph graph = loadGraph(graphJson(kRuleMesh, R"({"name": "t", "type": "!stablehlo.token"})",
                                    R"({"op": "after_all", "operands": [], "result": "u"},
         {"op": "after_all", "operands": ["t", "u"], "result": "v"})",
                                    ""));
  for (const Op &op : graph.main.ops) {
    CHECK(shardingRuleFor(graph, op).numFactors() == 0);
    CHECK_FALSE(shardyShardingRule(graph, op).has_value());
  }
}

TEST_CASE("rng_bit_generator: the state needs replication and blocks, the output dims are free") {
  // Shardy's op_sharding_rule_registry.mlir @rng_bit_generator.
  const std::string rng = R"({"op": "rng_bit_generator", "operands": ["s"],
      "results": ["state", "bits"], "types": ["tensor<2xui64>", "tensor<4x1000xui32>"],
      "rng_algorithm": "DEFAULT"})";
  CHECK(ruleOf(R"({"name": "s", "type": "tensor<2xui64>"})", rng) ==
        "([i])->([i], [j, k]) {i=2, j=4, k=1000} need_replication={i} blocked_propagation={i}");
  // A sharded state does not reach the new state; the output keeps the
  // sharding its use asks for.
  auto p = basic(R"({"name": "s", "type": "tensor<2xui64>", "sharding": "<@mesh, [{x}]>"})",
                 rng + R"(, {"op": "negate", "operands": ["bits"], "result": "n",
                      "sharding": "<@mesh, [{y}, {x}]>"})",
                 R"({"value": "state"}, {"value": "n"})");
  CHECK(p.sharding("state") == R"(<@mesh, [{}]>)");
  CHECK(p.sharding("bits") == R"(<@mesh, [{"y"}, {"x"}]>)");
}

TEST_CASE("a scatter of two inputs: inputs and results share factors, updates likewise") {
  const std::string inputs = R"({"name": "t", "type": "tensor<32x8xf32>"},
                                {"name": "n", "type": "tensor<32x8xi32>"},
                                {"name": "i", "type": "tensor<4x1xi32>"},
                                {"name": "u", "type": "tensor<4x8xf32>"},
                                {"name": "v", "type": "tensor<4x8xi32>"})";
  auto scatter = [&](const std::string &second) {
    return ruleOf(inputs, R"({"op": "scatter", "operands": ["t", "n", "i", "u", "v"],
      "results": ["r", "s"],
      "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                    "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
      "update_computation": {
        "args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<i32>"},
                 {"name": "c", "type": "tensor<f32>"}, {"name": "d", "type": "tensor<i32>"}],
        "ops": [{"op": "add", "operands": ["c", "a"], "result": "x"},
                {"op": ")" + second +
                              R"(", "operands": ["b", "d"], "result": "y"}],
        "return": ["x", "y"]}})");
  };
  // One reduction op for both (either operand order): the batch dim is a
  // reduction (Shardy's getCommonSupportedReductionOp).
  CHECK(
      scatter("add") ==
      "([k, j], [k, j], [i, 1], [i, j], [i, j])->([k, j], [k, j]) {i=4, j=8, k=32} reduction={i}");
  // Two different ops: no common reduction, the batch dim needs replication.
  CHECK(scatter("maximum") == "([k, j], [k, j], [i, 1], [i, j], [i, j])->([k, j], [k, j]) {i=4, "
                              "j=8, k=32} need_replication={i}");
}

TEST_CASE("fft: the batch dims pass through, the transform's dims need replication") {
  // Shardy's op_sharding_rule_registry.mlir @fft, @fft_real_truncated_result
  // and @fft_single_fft_dimension_inverse_real_expanded_result.
  CHECK(ruleOf(R"({"name": "z", "type": "tensor<8x32x64xcomplex<f32>>"})",
               R"({"op": "fft", "operands": ["z"], "result": "f", "fft_type": "FFT",
                   "fft_length": [32, 64]})") ==
        "([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k}");
  CHECK(ruleOf(R"({"name": "x", "type": "tensor<8x32x64xf32>"})",
               R"({"op": "fft", "operands": ["x"], "result": "f", "fft_type": "RFFT",
                   "fft_length": [32, 64]})") ==
        "([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k} "
        "blocked_propagation={k}");
  CHECK(ruleOf(R"({"name": "z", "type": "tensor<8x32x33xcomplex<f32>>"})",
               R"({"op": "fft", "operands": ["z"], "result": "f", "fft_type": "IRFFT",
                   "fft_length": [64]})") ==
        "([i, j, k])->([i, j, k]) {i=8, j=32, k=33} need_replication={k} blocked_propagation={k}");
  // The batch dim's sharding crosses the op both ways; a transformed dim's
  // reaches the result too (Shardy propagates it, the partitioner gathers
  // the operand), a truncated last dim's does not.
  auto p =
      basic(R"({"name": "x", "type": "tensor<8x4x6xf32>", "sharding": "<@mesh, [{x}, {y}, {}]>"})",
            R"({"op": "fft", "operands": ["x"], "result": "f", "fft_type": "RFFT",
                     "fft_length": [6]},
                    {"op": "fft", "operands": ["f"], "result": "g", "fft_type": "IRFFT",
                     "fft_length": [6]})",
            R"({"value": "g"})");
  CHECK(p.sharding("f") == R"(<@mesh, [{"x"}, {"y"}, {}]>)");
  CHECK(p.sharding("g") == R"(<@mesh, [{"x"}, {"y"}, {}]>)");
  auto q = basic(R"({"name": "x", "type": "tensor<8x6xf32>", "sharding": "<@mesh, [{}, {x}]>"})",
                 R"({"op": "fft", "operands": ["x"], "result": "f", "fft_type": "RFFT",
                     "fft_length": [6]})",
                 R"({"value": "f"})");
  CHECK(q.sharding("f") == R"(<@mesh, [{}, {}]>)");
}
