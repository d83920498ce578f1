// Transfers to, from and between distributions: one redistribute step whose
// bytes are exactly what the destinations lack (counted by hand here).

#include <doctest/doctest.h>

#include "compiler/partition/Redistribution.h"
#include "compiler/partition/Reshard.h"

using namespace shardgen;

namespace {

Mesh lineMesh(int64_t size) {
  // Built whole: assigning the name to a default Mesh trips GCC 12's
  // -Wrestrict false positive in std::string (GCC bug 105329).
  return Mesh{std::string("m"), {MeshAxis{"x", size}}, {}, {}, {}, {}};
}

const TensorType kVector{ElementType::F32, {4}};

ShardLayout chunksOfOne(const Mesh &mesh) {
  return makeDistributedLayout(mesh, kVector, Distribution{"m", {1}, DeviceOrder::RowMajor});
}

} // namespace

TEST_CASE("distribution -> sharding moves only the chunks a device lacks") {
  // [4] by [1] on 2 devices: device 0 holds chunks 0, 2; device 1 holds 1, 3.
  // Sharded on x, device 0 needs elements 0-1 (chunk 1 from device 1) and
  // device 1 needs 2-3 (chunk 2 from device 0): 4 bytes each way.
  Mesh mesh = lineMesh(2);
  ShardLayout sharded = makeShardLayout(mesh, kVector, DimAxes{{AxisRef::full("x")}});
  RedistributionTraffic traffic = redistributionTraffic(mesh, chunksOfOne(mesh), sharded);
  CHECK(traffic.sent == std::vector<int64_t>{4, 4});
  CHECK(traffic.received == std::vector<int64_t>{4, 4});
  ReshardPlan plan = planReshard(mesh, chunksOfOne(mesh), sharded);
  REQUIRE(plan.steps.size() == 1);
  CHECK(plan.steps[0].step.kind == StepKind::Redistribute);
  CHECK(plan.bytesReceived == 8);
}

TEST_CASE("replicated -> distribution moves nothing; distribution -> replicated gathers") {
  Mesh mesh = lineMesh(2);
  ShardLayout replicated = makeShardLayout(mesh, kVector, DimAxes(1));
  CHECK(redistributionTraffic(mesh, replicated, chunksOfOne(mesh)).totalReceived == 0);
  CHECK(redistributionTraffic(mesh, chunksOfOne(mesh), replicated).received ==
        std::vector<int64_t>{8, 8});
  CHECK(planReshard(mesh, chunksOfOne(mesh), chunksOfOne(mesh)).steps.empty());
}

TEST_CASE("between distributions: blocks cover each destination once, clipped edges") {
  // [5] by [2] (chunks [0,2) [2,4) [4,5)) on 3 devices, to [5] by [3] in
  // col_major (the same order on one axis): chunks [0,3) on 0, [3,5) on 1.
  Mesh mesh = lineMesh(3);
  TensorType type{ElementType::F32, {5}};
  ShardLayout from =
      makeDistributedLayout(mesh, type, Distribution{"m", {2}, DeviceOrder::RowMajor});
  ShardLayout to = makeDistributedLayout(mesh, type, Distribution{"m", {3}, DeviceOrder::ColMajor});
  CHECK(to.extentsOf(2) == Shape{0, 3}); // more devices than chunks: an empty buffer
  std::vector<RedistributionBlock> blocks = planRedistribution(mesh, from, to);
  int64_t toDevice0 = 0, toDevice1 = 0;
  for (const RedistributionBlock &block : blocks) {
    (block.to == 0 ? toDevice0 : toDevice1) += block.elements();
    CHECK(block.to != 2);
  }
  CHECK(toDevice0 == 3);
  CHECK(toDevice1 == 2); // the edge chunk's real part only
  RedistributionTraffic traffic = redistributionTraffic(mesh, from, to);
  // Device 0 keeps [0,2) and receives element 2 (device 1); device 1
  // receives 3 (its own chunk [2,4) holds it: kept) and 4 (device 2).
  CHECK(traffic.received == std::vector<int64_t>{4, 4, 0});
  CHECK(traffic.sent == std::vector<int64_t>{0, 4, 4});
}
