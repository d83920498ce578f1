// Sub-axis arithmetic against Shardy's AxisRefAttr (canCoexist,
// getPrefixWithoutOverlap), on one axis of size 6 or 16.

#include <doctest/doctest.h>

#include "compiler/propagate/SubAxis.h"
#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::propagation;
using namespace shardgen::testing;

namespace {
SubAxis piece(int64_t pre, int64_t size) { return SubAxis{0, pre, size}; }
} // namespace

TEST_CASE("sub-axes that fit no single device order cannot coexist") {
  // Size 6: (1)2 and (3)2 overlap without nesting; (1)2 and (2)3 tile it.
  CHECK_FALSE(canCoexist(piece(1, 2), piece(3, 2)));
  CHECK_FALSE(canCoexist(piece(3, 2), piece(1, 2)));
  CHECK(canCoexist(piece(1, 2), piece(2, 3)));
  CHECK(canCoexist(piece(1, 6), piece(3, 2))); // the full axis contains it
  // Size 16: (1)2 and (4)2 leave a gap of 2, itself a sub-axis.
  CHECK(canCoexist(piece(1, 2), piece(4, 2)));
  CHECK(canCoexist(piece(1, 4), piece(2, 4))); // overlapping, nested by divisibility
  CHECK_FALSE(prefixWithoutOverlap(piece(1, 2), piece(3, 2)).has_value());
  CHECK(*prefixWithoutOverlap(piece(1, 4), piece(2, 4)) == piece(1, 2));
}

TEST_CASE("propagation never puts sub-axes that cannot coexist into one tensor") {
  // Shardy's basic_propagation.mlir @sub_axes_cannot_coexist.
  auto p = propagate(graphJson(R"({"name": "a", "size": 6})",
                               R"({"name": "x", "type": "tensor<2x2xf32>",
                                   "sharding": "<@mesh, [{\"a\":(1)2}, {}]>"})",
                               R"({"op": "sine", "operands": ["x"], "result": "y"})",
                               R"({"value": "y", "sharding": "<@mesh, [{}, {\"a\":(3)2}]>"})"),
                     PropagationStrategy::Basic);
  CHECK(p.sharding("y") == R"(<@mesh, [{}, {"a":(3)2}]>)");
}

TEST_CASE("meshes equal up to name are one mesh; the result takes the first operand's") {
  // Shardy's basic_propagation.mlir @different_mesh_names_same_mesh_propagated.
  auto p = propagate(R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "m1", "axes": [{"name": "a", "size": 3}]},
               {"name": "m2", "axes": [{"name": "a", "size": 3}]},
               {"name": "m3", "axes": [{"name": "a", "size": 3}], "device_ids": [2, 1, 0]}],
    "inputs": [{"name": "x", "type": "tensor<6x6xf32>", "sharding": "<@m1, [{a}, {?}]>"},
               {"name": "y", "type": "tensor<6x6xf32>", "sharding": "<@m2, [{a}, {?}]>"},
               {"name": "z", "type": "tensor<6x6xf32>", "sharding": "<@m3, [{?}, {a}]>"}],
    "ops": [{"op": "add", "operands": ["x", "y"], "result": "s"},
            {"op": "add", "operands": ["x", "z"], "result": "t"}],
    "outputs": [{"value": "s"}, {"value": "t"}]})",
                     PropagationStrategy::Basic);
  CHECK(p.sharding("s") == R"(<@m1, [{"a"}, {}]>)");
  // Other device ids: another mesh, so nothing crosses.
  CHECK(p.sharding("t") == R"(<@m1, [{}, {}]>)");
}

TEST_CASE("a reshape merging dims takes the sub-axis that divides a non-minor-most factor") {
  // Shardy's basic_propagation.mlir
  // @merge_dim_non_minor_most_factor_propagate_sub_axis_and_concat: dim 0
  // (size 4) holds b then a (8 devices, overflowing), so the merged dim gets
  // b, the part of a that still divides 4, then dim 1's c.
  auto p = propagate(
      graphJson(R"({"name": "a", "size": 4}, {"name": "b", "size": 2}, {"name": "c", "size": 2})",
                R"({"name": "x", "type": "tensor<4x4xf32>", "sharding": "<@mesh, [{b, a}, {c}]>"})",
                R"({"op": "reshape", "operands": ["x"], "result": "y", "type": "tensor<16xf32>"})",
                R"({"value": "y"})"),
      PropagationStrategy::Basic);
  CHECK(p.sharding("y") == R"(<@mesh, [{"b", "a":(1)2, "c"}]>)");
}
