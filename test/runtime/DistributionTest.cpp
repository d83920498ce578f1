// Scatter/gather of global tensors: Shardy-style shardings (uneven and empty
// shards, sub-axes, several axes per dim, replicated axes) and tt-metal's ND
// round-robin chunks. Expected boxes are worked out by hand in comments.

#include <doctest/doctest.h>

#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "shardgen/distribution.h"

using namespace shardgen::runtime;

namespace {

std::vector<int32_t> iota(int64_t count) {
  std::vector<int32_t> values(count);
  std::iota(values.begin(), values.end(), 0);
  return values;
}

std::vector<int32_t> asInts(const std::vector<std::byte> &bytes) {
  std::vector<int32_t> values(bytes.size() / sizeof(int32_t));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

std::vector<const void *> pointers(const DeviceBuffers &buffers) {
  std::vector<const void *> result;
  for (const auto &buffer : buffers)
    result.push_back(buffer.data());
  return result;
}

} // namespace

TEST_CASE("uneven 2-D sharding: ceil-sized shards, the last one short") {
  // 5x6 on a 2x2 mesh, dim 0 on x (shards of 3: rows 0-2, 3-4), dim 1 on y
  // (shards of 3: cols 0-2, 3-5).
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  ShardedLayout layout(mesh, {5, 6}, {{{0}}, {{1}}});
  CHECK(layout.shardShape() == std::vector<int64_t>{3, 3});
  ShardBox box = layout.box(2); // (x=1, y=0)
  CHECK(box.offset == std::vector<int64_t>{3, 0});
  CHECK(box.extent == std::vector<int64_t>{2, 3});

  std::vector<int32_t> global = iota(30);
  DeviceBuffers padded = layout.scatter(global.data(), 4, ShardPadding::Padded);
  // Rows 3, 4 of columns 0-2, then a zero row of padding.
  CHECK(asInts(padded[2]) == std::vector<int32_t>{18, 19, 20, 24, 25, 26, 0, 0, 0});
  DeviceBuffers exact = layout.scatter(global.data(), 4, ShardPadding::Exact);
  CHECK(asInts(exact[2]) == std::vector<int32_t>{18, 19, 20, 24, 25, 26});
  CHECK(asInts(exact[1]) == std::vector<int32_t>{3, 4, 5, 9, 10, 11, 15, 16, 17});

  for (ShardPadding padding : {ShardPadding::Padded, ShardPadding::Exact}) {
    DeviceBuffers shards = layout.scatter(global.data(), 4, padding);
    std::vector<int32_t> back(30, -1);
    layout.gather(pointers(shards), 4, padding, back.data());
    CHECK(back == global);
  }
}

TEST_CASE("a dim of 5 over 4 shards: 2, 2, 1 and an empty shard") {
  DeviceMesh mesh({{"x", 4}});
  ShardedLayout layout(mesh, {5}, {{{0}}});
  CHECK(layout.box(0).extent == std::vector<int64_t>{2});
  CHECK(layout.box(2).offset == std::vector<int64_t>{4});
  CHECK(layout.box(2).extent == std::vector<int64_t>{1});
  CHECK(layout.box(3).offset == std::vector<int64_t>{5});
  CHECK(layout.box(3).extent == std::vector<int64_t>{0});
  CHECK(layout.localShape(3, ShardPadding::Exact) == std::vector<int64_t>{0});
  std::vector<int32_t> global = iota(5);
  DeviceBuffers shards = layout.scatter(global.data(), 4, ShardPadding::Padded);
  CHECK(asInts(shards[3]) == std::vector<int32_t>{0, 0});
  std::vector<int32_t> back(5, -1);
  layout.gather(pointers(shards), 4, ShardPadding::Padded, back.data());
  CHECK(back == global);
}

TEST_CASE("several axes on one dim go major to minor, in the order given") {
  // dim 0 on {y, x} over a 2x2 mesh: shard = y * 2 + x.
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  ShardedLayout layout(mesh, {8}, {{{1}, {0}}});
  std::vector<int32_t> global = iota(8);
  DeviceBuffers shards = layout.scatter(global.data(), 4, ShardPadding::Exact);
  CHECK(asInts(shards[0]) == std::vector<int32_t>{0, 1}); // x=0 y=0: shard 0
  CHECK(asInts(shards[1]) == std::vector<int32_t>{4, 5}); // x=0 y=1: shard 2
  CHECK(asInts(shards[2]) == std::vector<int32_t>{2, 3}); // x=1 y=0: shard 1
  CHECK(asInts(shards[3]) == std::vector<int32_t>{6, 7});
}

TEST_CASE("sub-axes split an axis: (1)2 is its major half, (2)2 its minor half") {
  // x of size 4; dim 0 on "x":(1)2 -> shard x / 2, dim 1 on "x":(2)2 -> x % 2.
  DeviceMesh mesh({{"x", 4}});
  ShardedLayout layout(mesh, {2, 2}, {{{0, 1, 2}}, {{0, 2, 2}}});
  std::vector<int32_t> global = iota(4);
  DeviceBuffers shards = layout.scatter(global.data(), 4, ShardPadding::Exact);
  CHECK(asInts(shards[0]) == std::vector<int32_t>{0});
  CHECK(asInts(shards[1]) == std::vector<int32_t>{1});
  CHECK(asInts(shards[2]) == std::vector<int32_t>{2});
  CHECK(asInts(shards[3]) == std::vector<int32_t>{3});
}

TEST_CASE("gather of a replicated tensor reads coordinate 0 of the replicated axes") {
  // Sharded on y only; the x=1 copies are corrupted and must not be read.
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  ShardedLayout layout(mesh, {4, 3}, {{{1}}, {}});
  std::vector<int32_t> global = iota(12);
  DeviceBuffers shards = layout.scatter(global.data(), 4, ShardPadding::Padded);
  CHECK(shards[2] == shards[0]); // x=1 holds the same data as x=0
  for (int64_t position : {2, 3})
    std::fill(shards[position].begin(), shards[position].end(), std::byte{0x7F});
  std::vector<int32_t> back(12, -1);
  layout.gather(pointers(shards), 4, ShardPadding::Padded, back.data());
  CHECK(back == global);
}

TEST_CASE("a scalar and a fully replicated tensor") {
  DeviceMesh mesh({{"x", 3}});
  ShardedLayout scalar(mesh, {}, {});
  int32_t value = 42;
  DeviceBuffers shards = scalar.scatter(&value, 4, ShardPadding::Exact);
  REQUIRE(shards.size() == 3);
  CHECK(asInts(shards[2]) == std::vector<int32_t>{42});
  int32_t back = 0;
  scalar.gather(pointers(shards), 4, ShardPadding::Exact, &back);
  CHECK(back == 42);
}

TEST_CASE("bad sharding descriptions are rejected") {
  DeviceMesh mesh({{"x", 4}, {"y", 2}});
  CHECK_THROWS_AS(ShardedLayout(mesh, {4, 4}, {{{0}}}), std::invalid_argument);
  CHECK_THROWS_AS(ShardedLayout(mesh, {4}, {{{2}}}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ShardedLayout(mesh, {4, 4}, {{{0}}, {{0, 2, 2}}}),
                       doctest::Contains("more than once"), std::invalid_argument);
  CHECK_THROWS_AS(ShardedLayout(mesh, {4}, {{{0, 3, 2}}}), std::invalid_argument);
  ShardedLayout fine(mesh, {4}, {{{0}}});
  int32_t data[4] = {};
  CHECK_THROWS_AS(fine.gather({data}, 4, ShardPadding::Exact, data), std::invalid_argument);
}

TEST_CASE("round-robin: [3,7,5] in [2,2,2] chunks over a 2x3 grid") {
  RoundRobinLayout layout({3, 7, 5}, {2, 2, 2}, {2, 3});
  CHECK(layout.chunkGrid() == std::vector<int64_t>{2, 4, 3});
  CHECK(layout.numChunks() == 24);
  for (int64_t device = 0; device < 6; ++device)
    CHECK(layout.chunksOn(device) ==
          std::vector<int64_t>{device, device + 6, device + 12, device + 18});
  CHECK(layout.gridCoordinates(4) == std::vector<int64_t>{1, 1});
  // Chunk 23 is chunk-grid (1, 3, 2): offset (2, 6, 4), a single element.
  ShardBox last = layout.chunkBox(23);
  CHECK(last.offset == std::vector<int64_t>{2, 6, 4});
  CHECK(last.extent == std::vector<int64_t>{1, 1, 1});

  std::vector<int32_t> global = iota(3 * 7 * 5);
  DeviceBuffers buffers = layout.scatter(global.data(), 4);
  REQUIRE(buffers[1].size() == 4 * 8 * 4);
  // Device 1, slot 0 = chunk 1 = chunk-grid (0, 0, 1): origin (0, 0, 2).
  // Its element (i, j, k) is global (i, j, 2 + k) = i*35 + j*5 + 2 + k.
  std::vector<int32_t> device1 = asInts(buffers[1]);
  CHECK(std::vector<int32_t>(device1.begin(), device1.begin() + 8) ==
        std::vector<int32_t>{2, 3, 7, 8, 37, 38, 42, 43});
  // Device 5, slot 3 = chunk 23: one real element (2, 6, 4) = 104, rest zero.
  std::vector<int32_t> device5 = asInts(buffers[5]);
  CHECK(std::vector<int32_t>(device5.begin() + 24, device5.end()) ==
        std::vector<int32_t>{104, 0, 0, 0, 0, 0, 0, 0});

  std::vector<int32_t> back(global.size(), -1);
  layout.gather(pointers(buffers), 4, back.data());
  CHECK(back == global);
}

TEST_CASE("round-robin: whole channels [1,10,10] over 6 devices, some holding more") {
  RoundRobinLayout layout({10, 10, 10}, {1, 10, 10}, {2, 3});
  CHECK(layout.numChunks() == 10);
  for (int64_t device = 0; device < 6; ++device)
    CHECK(layout.chunksOn(device).size() == (device < 4 ? 2u : 1u));
  std::vector<int32_t> global = iota(1000);
  DeviceBuffers buffers = layout.scatter(global.data(), 4);
  // Device 3 holds channels 3 and 9.
  std::vector<int32_t> device3 = asInts(buffers[3]);
  REQUIRE(device3.size() == 200);
  CHECK(device3[0] == 300);
  CHECK(device3[100] == 900);
  CHECK(device3[199] == 999);
  std::vector<int32_t> back(1000, -1);
  layout.gather(pointers(buffers), 4, back.data());
  CHECK(back == global);
}

TEST_CASE("round-robin: sticks [10,1,1] cut across channels") {
  RoundRobinLayout layout({10, 10, 10}, {10, 1, 1}, {2, 3});
  CHECK(layout.numChunks() == 100);
  CHECK(layout.chunksOn(0).size() == 17);
  CHECK(layout.chunksOn(5).size() == 16);
  std::vector<int32_t> global = iota(1000);
  DeviceBuffers buffers = layout.scatter(global.data(), 4);
  // Device 2, slot 1 = chunk 8 = stick at (*, 0, 8): values 8, 108, ..., 908.
  std::vector<int32_t> device2 = asInts(buffers[2]);
  for (int64_t i = 0; i < 10; ++i)
    CHECK(device2[10 + i] == 8 + 100 * i);
  std::vector<int32_t> back(1000, -1);
  layout.gather(pointers(buffers), 4, back.data());
  CHECK(back == global);
}

TEST_CASE("round-robin rejects bad shapes") {
  CHECK_THROWS_AS(RoundRobinLayout({4, 4}, {2}, {2}), std::invalid_argument);
  CHECK_THROWS_AS(RoundRobinLayout({4}, {0}, {2}), std::invalid_argument);
  CHECK_THROWS_AS(RoundRobinLayout({4}, {2}, {0, 2}), std::invalid_argument);
}

TEST_CASE("gatherUnreduced sums each shard's partial pieces over the unreduced axes") {
  // 2 rows on x; partial over y: devices (x, y=0) and (x, y=1) hold parts of
  // the same rows. The global value is their sum, not device y=0's part.
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  ShardedLayout layout(mesh, {2, 2}, {{{0}}, {}});
  std::vector<std::vector<float>> parts = {{1, 2}, {10, 20}, {3, 4}, {30, 40}};
  std::vector<const void *> shards;
  for (const auto &part : parts)
    shards.push_back(part.data());
  std::vector<float> global(4, -1);
  layout.gatherUnreduced(shards, SHARDGEN_F32, ShardPadding::Exact, {1}, global.data());
  CHECK(global == std::vector<float>{11, 22, 33, 44});
  CHECK_THROWS_AS(
      layout.gatherUnreduced(shards, SHARDGEN_F32, ShardPadding::Exact, {0}, global.data()),
      std::invalid_argument);
}
