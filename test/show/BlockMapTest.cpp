// Blocks read from the partitioner's layouts: replicas grouped, uneven and
// empty pieces marked, the grid of cells.

#include <doctest/doctest.h>

#include "compiler/show/BlockMap.h"
#include "compiler/show/ShowModel.h"
#include "test/show/ShowTestUtil.h"

using namespace shardgen;
using namespace shardgen::show;
using namespace shardgen::show::test;

TEST_CASE("devices holding the same box are one block; the boxes cut the dims") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  BlockMap map = mapBlocks(makeShardLayout(mesh, f32({8, 16}), DimAxes{{AxisRef::full("x")}, {}}));
  REQUIRE(map.blocks.size() == 2);
  CHECK(map.blocks[0].positions == std::vector<int64_t>{0, 1});
  CHECK(map.blocks[1].positions == std::vector<int64_t>{2, 3});
  CHECK(map.blocks[1].box == std::vector<Interval>{{4, 4}, {0, 16}});
  CHECK(map.cuts[0] == std::vector<Interval>{{0, 4}, {4, 4}});
  CHECK(map.cuts[1] == std::vector<Interval>{{0, 16}});
  CHECK(map.cellBlock == std::vector<int64_t>{0, 1});
  CHECK_FALSE(map.blocks[0].uneven);
}

TEST_CASE("blocks come from the shards per dim: dims on crossed axes, sub-axes, 2^20 devices") {
  // Dim 0 on y, dim 1 on x: device (x, y) holds row block y, column block x.
  Mesh mesh = makeMesh({{"x", 2}, {"y", 3}});
  BlockMap crossed = mapBlocks(
      makeShardLayout(mesh, f32({6, 4}), DimAxes{{AxisRef::full("y")}, {AxisRef::full("x")}}));
  REQUIRE(crossed.blocks.size() == 6);
  CHECK(crossed.cellBlock == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(crossed.blocks[1].box == std::vector<Interval>{{0, 2}, {2, 2}});
  CHECK(crossed.blocks[1].positions == std::vector<int64_t>{3}); // x=1, y=0
  CHECK(crossed.blocks[4].positions == std::vector<int64_t>{2}); // x=0, y=2
  // A dim of size 0: every device holds nothing.
  BlockMap none = mapBlocks(makeShardLayout(mesh, f32({0, 4}), DimAxes{{AxisRef::full("y")}, {}}));
  CHECK(none.numCells() == 0);
  REQUIRE(none.blocks.size() == 1);
  CHECK(none.blocks[0].empty);
  CHECK(none.blocks[0].positions.size() == 6);

  Mesh big = makeMesh({{"x", 1024}, {"y", 1024}});
  BlockMap map = mapBlocks(
      makeShardLayout(big, f32({1024, 1024}), DimAxes{{AxisRef::full("x")}, {AxisRef::full("y")}}));
  CHECK(map.numCells() == 1024 * 1024);
  CHECK(map.blocks.size() == 1024 * 1024);
  CHECK(map.blocks[1025].box == std::vector<Interval>{{1, 1}, {1, 1}});
  CHECK(map.blocks[1025].positions == std::vector<int64_t>{1025});
  // On x only: 1024 blocks of 1024 replicas each.
  BlockMap rows =
      mapBlocks(makeShardLayout(big, f32({1024, 1024}), DimAxes{{AxisRef::full("x")}, {}}));
  REQUIRE(rows.blocks.size() == 1024);
  CHECK(rows.blocks[3].positions.size() == 1024);
  CHECK(rows.blocks[3].positions.front() == 3 * 1024);
}

TEST_CASE("an uneven dim: short last block marked, a device with nothing is the empty block") {
  Mesh mesh = makeMesh({{"x", 4}});
  BlockMap map = mapBlocks(makeShardLayout(mesh, f32({5, 3}), DimAxes{{AxisRef::full("x")}, {}}));
  // Chunks of 2: [0:2] [2:4] [4:5] and nothing for the last device.
  REQUIRE(map.blocks.size() == 4);
  CHECK(map.cuts[0] == std::vector<Interval>{{0, 2}, {2, 2}, {4, 1}});
  CHECK_FALSE(map.blocks[1].uneven);
  CHECK(map.blocks[2].uneven);
  CHECK(map.blocks[2].positions == std::vector<int64_t>{2});
  CHECK(map.blocks[3].empty);
  CHECK(map.blocks[3].positions == std::vector<int64_t>{3});
  CHECK(map.numCells() == 3);
}

TEST_CASE("a dim on two axes, device ids through device_ids, partial axes kept") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  BlockMap map =
      mapBlocks(makeShardLayout(mesh, f32({8}), DimAxes{{AxisRef::full("y"), AxisRef::full("x")}}));
  // y major: position (x, y) holds chunk 2y + x.
  REQUIRE(map.blocks.size() == 4);
  CHECK(map.blocks[1].positions == std::vector<int64_t>{2}); // x=1, y=0
  CHECK(deviceList(mesh, map.blocks[1].positions) == "d1");
  BlockMap partial = mapBlocks(
      makeShardLayout(mesh, f32({8}), DimAxes{{AxisRef::full("x")}}, {AxisRef::full("y")}));
  CHECK(partial.partialAxes == std::vector<AxisRef>{AxisRef::full("y")});
  CHECK(deviceList(mesh, partial.blocks[0].positions) == "d2,3");
}

TEST_CASE("device lists: ranges of consecutive ids") {
  Mesh mesh = makeMesh({{"x", 8}});
  CHECK(deviceList(mesh, {0, 1, 2, 3}) == "d0-3");
  CHECK(deviceList(mesh, {0, 2, 4, 5, 6}) == "d0,2,4-6");
  CHECK(deviceList(mesh, {7, 6}) == "d6,7");
  CHECK(deviceList(mesh, {5}) == "d5");
}

TEST_CASE("a scalar is one block held by every device") {
  Mesh mesh = makeMesh({{"x", 2}});
  BlockMap map = mapBlocks(makeShardLayout(mesh, f32({}), DimAxes{}));
  REQUIRE(map.blocks.size() == 1);
  CHECK(map.blocks[0].positions == std::vector<int64_t>{0, 1});
  CHECK(map.numCells() == 1);
}
