// Shard layouts: exact uneven extents, sub-axes, groups.

#include <doctest/doctest.h>

#include "compiler/partition/ShardLayout.h"

using namespace shardgen;

namespace {

Mesh makeMesh(std::vector<MeshAxis> axes) {
  Mesh mesh;
  mesh.name = "mesh";
  mesh.axes = std::move(axes);
  return mesh;
}

TensorType f32(Shape shape) { return TensorType{ElementType::F32, std::move(shape)}; }

} // namespace

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

TEST_CASE("sub-axes take their digits of the axis coordinate") {
  Mesh mesh = makeMesh({{"x", 4}});
  AxisRef low = AxisRef::sub("x", 1, 2), high = AxisRef::sub("x", 2, 2);
  std::vector<int64_t> lowCoords, highCoords;
  for (int64_t device = 0; device < 4; ++device) {
    lowCoords.push_back(axisCoordinate(mesh, low, device));
    highCoords.push_back(axisCoordinate(mesh, high, device));
  }
  CHECK(lowCoords == std::vector<int64_t>{0, 1, 0, 1});
  CHECK(highCoords == std::vector<int64_t>{0, 0, 1, 1});
  ShardLayout layout = makeShardLayout(mesh, f32({8}), DimAxes{{low}});
  CHECK(layout.offset(1, 0) == 4);
  CHECK(layout.offset(2, 0) == 0);
  // The group over the high sub-axis: devices sharing the low digit.
  CHECK(groupDevices(mesh, {high}, 1) == std::vector<int64_t>{1, 3});
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
