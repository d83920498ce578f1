// Ties between ops at the same depth (two ops conflicting over one value):
// Shardy lets the first in program order win; shardgen ranks them by name
// (natural order: a trailing number compares as a number), which for
// SSA-numbered names is Shardy's program order, and never by the position of
// an op in the graph file.
#include <doctest/doctest.h>

#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kTieBreakMesh = R"({"name": "a", "size": 2}, {"name": "b", "size": 2})";

/// Shardy's op_priority_propagation.mlir @defer_backwards_propagation_for_op_
/// with_multi_use_operand: two adds of `arg0` pull it two ways; `first` is
/// the add the sine reads, `second` the one returned directly.
Propagated conflict(const std::string &first, const std::string &second, bool firstListedFirst) {
  std::string addFirst =
      R"({"op": "add", "operands": ["arg0", "arg0"], "result": ")" + first + R"("})";
  std::string addSecond =
      R"({"op": "add", "operands": ["arg0", "arg0"], "result": ")" + second + R"("})";
  std::string sine = R"({"op": "sine", "operands": [")" + first + R"("], "result": "s"})";
  std::string ops = firstListedFirst ? addFirst + ", " + addSecond + ", " + sine
                                     : addSecond + ", " + addFirst + ", " + sine;
  return propagate(graphJson(kTieBreakMesh, R"({"name": "arg0", "type": "tensor<8x8xf32>"})", ops,
                             R"({"value": ")" + second + R"(", "sharding": "<@mesh, [{}, {a}]>"},
                                {"value": "s", "sharding": "<@mesh, [{a}, {}]>"})"),
                   PropagationStrategy::OpPriority);
}

} // namespace

TEST_CASE("a tie between ops goes to the name first in natural order, wherever the op is listed") {
  // v2 before v10 (numbers compare as numbers), so the add feeding the sine
  // wins: arg0 is split on dim 0, as Shardy does when v2 comes first.
  for (bool listedFirst : {true, false}) {
    auto p = conflict("v2", "v10", listedFirst);
    CHECK(p.sharding("arg0") == R"(<@mesh, [{"a"}, {}]>)");
    CHECK(p.sharding("v10") == R"(<@mesh, [{}, {"a"}]>)");
  }
  // Named the other way round, the directly returned add wins.
  for (bool listedFirst : {true, false}) {
    auto p = conflict("v10", "v2", listedFirst);
    CHECK(p.sharding("arg0") == R"(<@mesh, [{}, {"a"}]>)");
  }
  // MLIR imports keep SSA numbers as names ("%3" -> "3").
  CHECK(conflict("3", "4", false).sharding("arg0") == R"(<@mesh, [{"a"}, {}]>)");
}
