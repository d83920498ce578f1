// Placement of a round-robin distribution (spec "Distributions"), checked on
// the tt-metal seed's examples with the expected chunks worked out by hand.
#include <doctest/doctest.h>

#include "compiler/ir/Distribution.h"

using namespace shardgen;

namespace {

Mesh grid2x3() {
  Mesh mesh;
  mesh.name = "cores";
  mesh.axes = {{"r", 2}, {"c", 3}};
  return mesh;
}

using Ints = std::vector<int64_t>;

} // namespace

TEST_CASE("[3,7,5] by [2,2,2] on a 2x3 grid: 24 chunks, 4 per device, edges clipped") {
  DistributionLayout layout({"cores", {2, 2, 2}, DeviceOrder::RowMajor}, {3, 7, 5}, grid2x3());
  CHECK(layout.chunkGrid() == Ints{2, 4, 3});
  CHECK(layout.numChunks() == 24);
  CHECK(layout.numDevices() == 6);
  CHECK(layout.chunksOfPosition(0) == Ints{0, 6, 12, 18});
  CHECK(layout.chunksOfPosition(5) == Ints{5, 11, 17, 23});
  CHECK(layout.localShape(5) == Ints{4, 2, 2, 2});
  CHECK(layout.positionOfChunk(13) == 1);
  CHECK(layout.slotOfChunk(13) == 2);
  // Chunk 5 = grid (0, 1, 2): rows 0-1, cols 2-3, the last column 4 alone.
  ChunkBox box = layout.chunkBox(5);
  CHECK(box.offset == Ints{0, 2, 4});
  CHECK(box.extent == Ints{2, 2, 1});
  // Chunk 23 = grid (1, 3, 2): the far corner, one element.
  CHECK(layout.chunkBox(23).offset == Ints{2, 6, 4});
  CHECK(layout.chunkBox(23).extent == Ints{1, 1, 1});
  CHECK(layout.chunkBox(23).volume() == 1);
}

TEST_CASE("[10,10,10] by [1,10,10]: device 0 holds channels 0 and 6, devices 4 and 5 one each") {
  DistributionLayout layout({"cores", {1, 10, 10}, DeviceOrder::RowMajor}, {10, 10, 10}, grid2x3());
  CHECK(layout.numChunks() == 10);
  CHECK(layout.chunksOfPosition(0) == Ints{0, 6});
  CHECK(layout.chunksOfPosition(3) == Ints{3, 9});
  CHECK(layout.chunksOfPosition(4) == Ints{4});
  CHECK(layout.chunkCountOfPosition(5) == 1);
  CHECK(layout.localShape(4) == Ints{1, 1, 10, 10});
  CHECK(layout.chunkBox(6).offset == Ints{6, 0, 0});
  CHECK(layout.chunkBox(6).extent == Ints{1, 10, 10});
}

TEST_CASE("col_major: the first mesh axis varies fastest") {
  Mesh mesh = grid2x3();
  CHECK(distributionDeviceOrder(mesh, DeviceOrder::RowMajor) == Ints{0, 1, 2, 3, 4, 5});
  // D[i] = (i mod 2, i / 2) as (r, c): positions 0, 3, 1, 4, 2, 5.
  CHECK(distributionDeviceOrder(mesh, DeviceOrder::ColMajor) == Ints{0, 3, 1, 4, 2, 5});
  DistributionLayout layout({"cores", {1, 10, 10}, DeviceOrder::ColMajor}, {10, 10, 10}, mesh);
  CHECK(layout.positionOfChunk(1) == 3);
  CHECK(layout.listIndexOfPosition(1) == 2);
  CHECK(layout.chunksOfPosition(1) == Ints{2, 8});
  CHECK(layout.chunksOfPosition(2) == Ints{4});
}

TEST_CASE("more devices than chunks: the rest hold none; rank 0 is one chunk on D[0]") {
  DistributionLayout few({"cores", {1}, DeviceOrder::RowMajor}, {2}, grid2x3());
  CHECK(few.chunksOfPosition(1) == Ints{1});
  CHECK(few.chunksOfPosition(2).empty());
  CHECK(few.localShape(5) == Ints{0, 1});
  DistributionLayout scalar({"cores", {}, DeviceOrder::ColMajor}, {}, grid2x3());
  CHECK(scalar.numChunks() == 1);
  CHECK(scalar.localShape(0) == Ints{1});
  CHECK(scalar.localShape(3) == Ints{0});
  CHECK(scalar.chunkBox(0).volume() == 1);
}

TEST_CASE("a reduce's result drops the reduced dims of the shard shape") {
  Distribution operand{"cores", {4, 1, 3}, DeviceOrder::ColMajor};
  Distribution result = dropDistributionDims(operand, {0, 2});
  CHECK(result == Distribution{"cores", {1}, DeviceOrder::ColMajor});
  CHECK(printDistribution(operand) ==
        R"({"mesh": "cores", "shard_shape": [4, 1, 3], "order": "col_major"})");
  CHECK(parseDeviceOrder("row_major") == DeviceOrder::RowMajor);
  CHECK_FALSE(parseDeviceOrder("RowMajor"));
}
