// A tensor never uses a mesh axis twice (Shardy: an axis already used in one
// dim of a tensor truncates what a factor may add to another). Each case is
// a way propagation once got this wrong.
#include <doctest/doctest.h>

#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// Every value's propagated sharding passes the verifier (which rejects an
/// axis used twice).
void checkAllVerify(const Propagated &p) {
  for (size_t v = 0; v < p.graph.values.size(); ++v) {
    CAPTURE(p.graph.values[v].name);
    CHECK_NOTHROW(verifySharding(p.result.shardingOf(static_cast<ValueId>(v)),
                                 p.graph.type(static_cast<ValueId>(v)), p.graph,
                                 p.graph.values[v].pointer()));
  }
}

} // namespace

TEST_CASE("axes of a size-1 dim (no factor) are not given to another dim") {
  // Dim 0 of size 1 maps to no factor of the add, so its axis "a" is not in
  // any factor sharding; it must still stop "a" from reaching dim 1.
  std::string json =
      graphJson(R"({"name": "a", "size": 2}, {"name": "b", "size": 2})",
                R"({"name": "p", "type": "tensor<1x8xf32>", "sharding": "<@mesh, [{a}, {?}]>"},
         {"name": "q", "type": "tensor<1x8xf32>", "sharding": "<@mesh, [{}, {a, b}]>"})",
                R"({"result": "r", "op": "add", "operands": ["p", "q"]})", R"({"value": "r"})");
  for (auto strategy : {PropagationStrategy::Basic, PropagationStrategy::Aggressive,
                        PropagationStrategy::UserPriority}) {
    CAPTURE(strategyName(strategy));
    Propagated p = propagate(json, strategy);
    // "a" leads q's dim 1, so p's dim 1 can take nothing of it (a prefix).
    CHECK(p.sharding("p") == R"(<@mesh, [{"a"}, {}]>)");
    checkAllVerify(p);
  }
  // Aggressively, r (no axes on dim 0) takes q's whole dim 1.
  CHECK(propagate(json, PropagationStrategy::Aggressive).sharding("r") ==
        R"(<@mesh, [{}, {"a", "b"}]>)");
}

TEST_CASE("a size-1 dim's axes block a factor coming through a manual computation") {
  // The shape of random seed 20: the in_sharding asks for "a" on dim 1 of an
  // operand whose size-1 dim 0 already holds {b, a}.
  Propagated p = propagate(
      graphJson(R"({"name": "a", "size": 4}, {"name": "b", "size": 2})",
                R"({"name": "x", "type": "tensor<1x4xf32>", "sharding": "<@mesh, [{b, a}, {?}]>"})",
                R"({"op": "manual_computation", "operands": ["x"], "results": ["m"],
          "in_shardings": ["<@mesh, [{}, {a}]>"], "out_shardings": ["<@mesh, [{}, {a}]>"],
          "manual_axes": ["a"],
          "body": {"args": [{"name": "l", "type": "tensor<1x1xf32>"}],
                   "ops": [{"result": "n", "op": "negate", "operands": ["l"]}],
                   "return": ["n"]}})",
                R"({"value": "m"})"));
  CHECK(p.sharding("x") == R"(<@mesh, [{"b", "a"}, {}]>)");
  checkAllVerify(p);
}

TEST_CASE("a mesh axis of size 1 is not used twice") {
  // "b" has size 1: as a device interval it is empty, yet writing it in two
  // dims is still using it twice.
  std::string json =
      graphJson(R"({"name": "a", "size": 2}, {"name": "b", "size": 1})",
                R"({"name": "p", "type": "tensor<4x4xf32>", "sharding": "<@mesh, [{b}, {?}]>"},
         {"name": "q", "type": "tensor<4x4xf32>", "sharding": "<@mesh, [{?}, {b}]>"})",
                R"({"result": "r", "op": "add", "operands": ["p", "q"]},
         {"result": "t", "op": "transpose", "operands": ["p"], "permutation": [1, 0],
          "sharding": "<@mesh, [{b}, {a}]>"})",
                R"({"value": "r"}, {"value": "t"})");
  for (auto strategy : {PropagationStrategy::Basic, PropagationStrategy::Aggressive,
                        PropagationStrategy::UserPriority}) {
    CAPTURE(strategyName(strategy));
    Propagated p = propagate(json, strategy);
    // q (through the add) and t (through the transpose) offer "b" to p's
    // dim 1, and p offers it to q's dim 0: each already holds "b".
    CHECK(p.sharding("p") == R"(<@mesh, [{"b"}, {}]>)");
    CHECK(p.sharding("q") == R"(<@mesh, [{}, {"b"}]>)");
    checkAllVerify(p);
  }
}
