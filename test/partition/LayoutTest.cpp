// Shard layouts: exact uneven extents, sub-axes, groups.

#include <doctest/doctest.h>

#include "compiler/partition/ShardLayout.h"
#include "test/partition/MeshTestUtil.h"

using namespace shardgen;
using shardgen::testing::f32;
using shardgen::testing::makeMesh;

TEST_CASE("an uneven dim gives ceil-sized chunks and short or empty last pieces") {
  Mesh mesh = makeMesh({{"x", 4}});
  ShardLayout layout = makeShardLayout(mesh, f32({5, 3}), DimAxes{{AxisRef::full("x")}, {}});
  CHECK(layout.chunkShape() == Shape{2, 3});
  CHECK_FALSE(layout.isEven());
  std::vector<int64_t> offsets, extents;
  for (int64_t device = 0; device < 4; ++device) {
    offsets.push_back(layout.offset(device, 0));
    extents.push_back(layout.extent(device, 0));
    CHECK(layout.extent(device, 1) == 3);
  }
  CHECK(offsets == std::vector<int64_t>{0, 2, 4, 5});
  CHECK(extents == std::vector<int64_t>{2, 2, 1, 0});
  CHECK(layout.localType(3) == f32({0, 3}));
  CHECK(localBytes(layout, 2) == 1 * 3 * 4);
}

TEST_CASE("a dim on two axes is split major axis first") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  // Dim on {y, x}: device (x=1, y=0) = position 2 holds shard 0*2+1 = 1.
  ShardLayout layout =
      makeShardLayout(mesh, f32({8}), DimAxes{{AxisRef::full("y"), AxisRef::full("x")}});
  CHECK(layout.offset(2, 0) == 2);
  CHECK(layout.offset(1, 0) == 4); // (x=0, y=1): shard 2
  CHECK(layout.isEven());
}

TEST_CASE("a sub-axis's pre-size counts the parts of its axis major to it (Shardy)") {
  // "x":(pre)size sees x as [pre, size, post]: "x":(1)2 of a size-4 axis is
  // the major digit of x's coordinate, "x":(2)2 the minor one.
  Mesh mesh = makeMesh({{"x", 4}});
  AxisRef major = AxisRef::sub("x", 1, 2), minor = AxisRef::sub("x", 2, 2);
  std::vector<int64_t> majorCoords, minorCoords;
  for (int64_t device = 0; device < 4; ++device) {
    majorCoords.push_back(axisCoordinate(mesh, major, device));
    minorCoords.push_back(axisCoordinate(mesh, minor, device));
  }
  CHECK(majorCoords == std::vector<int64_t>{0, 0, 1, 1});
  CHECK(minorCoords == std::vector<int64_t>{0, 1, 0, 1});
  ShardLayout layout = makeShardLayout(mesh, f32({8}), DimAxes{{major}});
  CHECK(layout.offset(1, 0) == 0);
  CHECK(layout.offset(2, 0) == 4);
  // The group over the minor sub-axis: devices sharing the major digit.
  CHECK(groupDevices(mesh, {minor}, 2) == std::vector<int64_t>{2, 3});
  CHECK(groupLeader(mesh, {major}, 3) == 1);
  // Both parts in order are the whole axis: the same pieces as {x}.
  ShardLayout split = makeShardLayout(mesh, f32({8}), DimAxes{{major, minor}});
  ShardLayout whole = makeShardLayout(mesh, f32({8}), DimAxes{{AxisRef::full("x")}});
  for (int64_t device = 0; device < 4; ++device)
    CHECK(split.offset(device, 0) == whole.offset(device, 0));
}

TEST_CASE("sub-axes of one axis lay a tensor out as the mesh split into those axes") {
  // Shardy's example: on <"devices"=8>, [{"devices":(1)4}, {"devices":(4)2}]
  // is [{"x"}, {"y"}] on <"x"=4, "y"=2>.
  Mesh full = makeMesh({{"devices", 8}}), split = makeMesh({{"x", 4}, {"y", 2}});
  ShardLayout a = makeShardLayout(
      full, f32({4, 4}), DimAxes{{AxisRef::sub("devices", 1, 4)}, {AxisRef::sub("devices", 4, 2)}});
  ShardLayout b =
      makeShardLayout(split, f32({4, 4}), DimAxes{{AxisRef::full("x")}, {AxisRef::full("y")}});
  for (int64_t device = 0; device < 8; ++device) {
    CAPTURE(device);
    CHECK(a.offsetsOf(device) == b.offsetsOf(device));
    CHECK(a.extentsOf(device) == b.extentsOf(device));
  }
}

TEST_CASE("groups are the devices differing only in the group axes, in position order") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 3}});
  CHECK(groupDevices(mesh, {AxisRef::full("y")}, 4) == std::vector<int64_t>{3, 4, 5});
  CHECK(groupDevices(mesh, {AxisRef::full("x")}, 4) == std::vector<int64_t>{1, 4});
  // Listed order decides positions: {y, x} is y-major.
  CHECK(groupDevices(mesh, {AxisRef::full("y"), AxisRef::full("x")}, 0) ==
        std::vector<int64_t>{0, 3, 1, 4, 2, 5});
  CHECK(indexOverAxes(mesh, {AxisRef::full("y"), AxisRef::full("x")}, 4) == 3);
}

TEST_CASE("layouts compare by axes and partial axes, not by sharding decorations") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  ShardLayout a =
      makeShardLayout(mesh, f32({4}), DimAxes{{AxisRef::full("x")}}, {AxisRef::full("y")});
  ShardLayout b = makeShardLayout(mesh, f32({4}), DimAxes{{AxisRef::full("x")}});
  CHECK_FALSE(sameLayout(a, b));
  b.partialAxes = {AxisRef::full("y")};
  CHECK(sameLayout(a, b));
}
