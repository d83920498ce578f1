// manual_computation: free axes cross its boundary both ways, manual axes
// never enter the body, and in/out shardings gain what propagation found.
#include <doctest/doctest.h>

#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string manualGraph(const std::string &xSharding, const std::string &inSharding,
                        const std::string &bodyOps, const std::string &outSharding) {
  return graphJson(R"({"name": "data", "size": 2}, {"name": "model", "size": 2})",
                   R"({"name": "x", "type": "tensor<8x16xf32>", "sharding": ")" + xSharding +
                       R"("})",
                   R"({"op": "manual_computation", "operands": ["x"], "results": ["r"],
          "in_shardings": [")" +
                       inSharding + R"("],
          "out_shardings": [")" +
                       outSharding + R"("],
          "manual_axes": ["data"],
          "body": {"args": [{"name": "xl", "type": "tensor<4x16xf32>"}],
                   "ops": [)" +
                       bodyOps + R"(],
                   "return": ["yl"]}},
         {"op": "negate", "operands": ["r"], "result": "n"})",
                   R"({"value": "n"})");
}

} // namespace

TEST_CASE("free axes propagate into the body and out again; manual ones never enter") {
  auto p = propagate(manualGraph("<@mesh, [{data}, {model}]>", "<@mesh, [{data}, {?}]>",
                                 R"({"op": "tanh", "operands": ["xl"], "result": "yl"})",
                                 "<@mesh, [{data}, {?}]>"));
  CHECK(p.sharding("xl") == R"(<@mesh, [{}, {"model"}]>)");
  CHECK(p.sharding("yl") == R"(<@mesh, [{}, {"model"}]>)");
  CHECK(p.sharding("r") == R"(<@mesh, [{"data"}, {"model"}]>)");
  CHECK(p.sharding("n") == R"(<@mesh, [{"data"}, {"model"}]>)");
  const auto &mc = p.result.manualComputations.at(&p.graph.main.ops[0]);
  CHECK(printSharding(mc.inShardings[0]) == R"(<@mesh, [{"data"}, {"model"}]>)");
  CHECK(printSharding(mc.outShardings[0]) == R"(<@mesh, [{"data"}, {"model"}]>)");
}

TEST_CASE("a sharding found inside the body flows out to the operand") {
  auto p = propagate(manualGraph(
      "<@mesh, [{data, ?}, {?}]>", "<@mesh, [{data, ?}, {?}]>",
      R"({"op": "sharding_constraint", "operands": ["xl"], "result": "cl", "sharding": "<@mesh, [{}, {model}]>"},
         {"op": "exponential", "operands": ["cl"], "result": "yl"})",
      "<@mesh, [{data}, {?}]>"));
  CHECK(p.sharding("x") == R"(<@mesh, [{"data"}, {"model"}]>)");
  CHECK(p.sharding("r") == R"(<@mesh, [{"data"}, {"model"}]>)");
}

TEST_CASE("a closed in_sharding dim does not gain free axes") {
  auto p = propagate(manualGraph("<@mesh, [{data}, {model}]>", "<@mesh, [{data}, {}]>",
                                 R"({"op": "tanh", "operands": ["xl"], "result": "yl"})",
                                 "<@mesh, [{data}, {?}]>"));
  CHECK(p.sharding("xl") == R"(<@mesh, [{}, {}]>)");
  CHECK(printSharding(p.result.manualComputations.at(&p.graph.main.ops[0]).inShardings[0]) ==
        R"(<@mesh, [{"data"}, {}]>)");
}

TEST_CASE("a closed in_sharding is applied to an operand without a sharding") {
  // Shardy's apply_sharding_constraints.mlir @manual_computation: the closed
  // in_sharding becomes a's own sharding, so m's "model" cannot enter a's
  // dim 1; an open in_sharding leaves a to propagation.
  auto graph = [](const std::string &inSharding) {
    return graphJson(R"({"name": "data", "size": 2}, {"name": "model", "size": 2})",
                     R"({"name": "p", "type": "tensor<8x16xf32>"})",
                     R"({"op": "add", "operands": ["p", "p"], "result": "a"},
         {"op": "manual_computation", "operands": ["a"], "results": ["r"],
          "in_shardings": [")" +
                         inSharding +
                         R"("], "out_shardings": ["<@mesh, [{data}, {}]>"],
          "manual_axes": ["data"],
          "body": {"args": [{"name": "al", "type": "tensor<4x16xf32>"}],
                   "ops": [{"op": "tanh", "operands": ["al"], "result": "yl"}],
                   "return": ["yl"]}},
         {"op": "negate", "operands": ["a"], "result": "m"})",
                     R"({"value": "r"}, {"value": "m", "sharding": "<@mesh, [{}, {model}]>"})");
  };
  auto closed = propagate(graph("<@mesh, [{data}, {}]>"));
  CHECK(closed.sharding("a") == R"(<@mesh, [{"data"}, {}]>)");
  auto open = propagate(graph("<@mesh, [{data}, {?}]>"));
  CHECK(open.sharding("a") == R"(<@mesh, [{"data"}, {"model"}]>)");
}
