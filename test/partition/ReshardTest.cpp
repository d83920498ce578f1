// Reshard planning: the expected collective sequence for each kind of move,
// and the simulated data equal to the global tensor in the new layout.

#include <doctest/doctest.h>

#include "compiler/partition/Reshard.h"
#include "test/partition/MeshTestUtil.h"
#include "test/partition/SpmdSimulator.h"

using namespace shardgen;
using shardgen::testing::f32;
using shardgen::testing::makeMesh;

namespace {

AxisRef ax(const char *name) { return AxisRef::full(name); }

Literal iotaLiteral(const TensorType &type) {
  Literal literal(type);
  for (int64_t i = 0; i < literal.numElements(); ++i)
    literal.setFloat(i, static_cast<double>(i + 1));
  return literal;
}

std::vector<StepKind> kinds(const ReshardPlan &plan) {
  std::vector<StepKind> result;
  for (const auto &planned : plan.steps)
    result.push_back(planned.step.kind);
  return result;
}

/// Plans from -> to inside a program and simulates it on an iota tensor;
/// returns the plan's step kinds. The value arriving must be the tensor.
std::vector<StepKind> checkReshard(const Mesh &mesh, const ShardLayout &from,
                                   const ShardLayout &to) {
  SpmdProgram program;
  program.mesh = mesh;
  program.values.push_back(SpmdValue{"v", from, -1});
  program.inputs = {0};
  SpmdValueId result = appendReshard(program, 0, to, nullptr, "/test");
  program.outputs = {result};
  CHECK(sameLayout(program.layout(result), to));
  Literal global = iotaLiteral(from.globalType);
  std::vector<Literal> outputs = simulateSpmd(program, {global});
  if (from.partialAxes.empty())
    CHECK(outputs[0] == global);
  std::vector<StepKind> resultKinds;
  for (const auto &step : program.steps)
    resultKinds.push_back(step.kind);
  return resultKinds;
}

} // namespace

TEST_CASE("removing an axis is an all_gather of that dim") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  auto from = makeShardLayout(mesh, f32({4, 4}), DimAxes{{ax("x")}, {ax("y")}});
  auto to = makeShardLayout(mesh, f32({4, 4}), DimAxes{{}, {ax("y")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  REQUIRE(kinds(plan) == std::vector<StepKind>{StepKind::AllGather});
  CHECK(plan.steps[0].step.dimension == 0);
  CHECK(plan.steps[0].step.axes == std::vector<AxisRef>{ax("x")});
  // Each of 4 devices receives the other x-member's 2x2 f32 piece.
  CHECK(plan.bytesReceived == 4 * 16);
  CHECK(checkReshard(mesh, from, to) == kinds(plan));
}

TEST_CASE("adding axes is one local all_slice") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  auto from = makeShardLayout(mesh, f32({4, 6}), DimAxes{{}, {}});
  auto to = makeShardLayout(mesh, f32({4, 6}), DimAxes{{ax("x")}, {ax("y")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  CHECK(kinds(plan) == std::vector<StepKind>{StepKind::AllSlice});
  CHECK(plan.bytesReceived == 0);
  CHECK(checkReshard(mesh, from, to) == kinds(plan));
}

TEST_CASE("an axis moving between dims is an all_to_all") {
  Mesh mesh = makeMesh({{"x", 2}});
  auto from = makeShardLayout(mesh, f32({4, 6}), DimAxes{{ax("x")}, {}});
  auto to = makeShardLayout(mesh, f32({4, 6}), DimAxes{{}, {ax("x")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  REQUIRE(kinds(plan) == std::vector<StepKind>{StepKind::AllToAll});
  CHECK(plan.steps[0].step.dimension == 1);       // split
  CHECK(plan.steps[0].step.concatDimension == 0); // concat
  CHECK(checkReshard(mesh, from, to) == kinds(plan));
}

TEST_CASE("an all_to_all that would not be exact on uneven dims is a gather and a slice") {
  Mesh mesh = makeMesh({{"x", 2}});
  auto from = makeShardLayout(mesh, f32({3, 3}), DimAxes{{ax("x")}, {}});
  auto to = makeShardLayout(mesh, f32({3, 3}), DimAxes{{}, {ax("x")}});
  CHECK(checkReshard(mesh, from, to) ==
        std::vector<StepKind>{StepKind::AllGather, StepKind::AllSlice});
}

TEST_CASE("swapping the order of a dim's axes is one collective_permute") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  auto from = makeShardLayout(mesh, f32({8}), DimAxes{{ax("x"), ax("y")}});
  auto to = makeShardLayout(mesh, f32({8}), DimAxes{{ax("y"), ax("x")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  REQUIRE(kinds(plan) == std::vector<StepKind>{StepKind::CollectivePermute});
  // Positions 1 (x0 y1) and 2 (x1 y0) swap their 2-element pieces; 0 and 3 keep theirs.
  CHECK(plan.bytesReceived == 2 * 8);
  CHECK(checkReshard(mesh, from, to) == kinds(plan));
}

TEST_CASE("a partial value scattered onto a dim the target shards is a reduce_scatter") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  auto from = makeShardLayout(mesh, f32({4, 4}), DimAxes{{ax("x")}, {}}, {ax("y")});
  auto to = makeShardLayout(mesh, f32({4, 4}), DimAxes{{ax("x")}, {ax("y")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  REQUIRE(kinds(plan) == std::vector<StepKind>{StepKind::ReduceScatter});
  CHECK(plan.steps[0].step.dimension == 1);
  CHECK(plan.steps[0].step.axes == std::vector<AxisRef>{ax("y")});
  checkReshard(mesh, from, to);
}

TEST_CASE("a partial value wanted whole is an all_reduce; an unreduced target keeps it") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  auto from = makeShardLayout(mesh, f32({4, 4}), DimAxes{{ax("x")}, {}}, {ax("y")});
  auto whole = makeShardLayout(mesh, f32({4, 4}), DimAxes{{ax("x")}, {}});
  CHECK(kinds(planReshard(mesh, from, whole)) == std::vector<StepKind>{StepKind::AllReduce});
  CHECK(planReshard(mesh, from, from).steps.empty());
}

TEST_CASE("gathering a minor axis of an uneven dim gathers the whole dim, then slices") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  // 5 on {x, y}: pieces 2,2,1,0. Keeping x (chunks of 3) cannot be built by
  // concatenating y-pieces, so everything is gathered and x sliced again.
  auto from = makeShardLayout(mesh, f32({5}), DimAxes{{ax("x"), ax("y")}});
  auto to = makeShardLayout(mesh, f32({5}), DimAxes{{ax("x")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  REQUIRE(kinds(plan) == (std::vector<StepKind>{StepKind::AllGather, StepKind::AllSlice}));
  CHECK(plan.steps[0].step.axes == (std::vector<AxisRef>{ax("x"), ax("y")}));
  CHECK(checkReshard(mesh, from, to) == kinds(plan));
}

TEST_CASE("a dim whose chunks divide evenly gathers only its minor axis") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  auto from = makeShardLayout(mesh, f32({7}), DimAxes{{ax("x"), ax("y")}});
  // 7 on {x}: chunks of 4 = 2 + 2 y-pieces (the last: 2 + 1).
  auto to = makeShardLayout(mesh, f32({7}), DimAxes{{ax("x")}});
  ReshardPlan plan = planReshard(mesh, from, to);
  REQUIRE(kinds(plan) == std::vector<StepKind>{StepKind::AllGather});
  CHECK(plan.steps[0].step.axes == std::vector<AxisRef>{ax("y")});
  CHECK(checkReshard(mesh, from, to) == kinds(plan));
}

TEST_CASE("sub-axes reshard exactly") {
  Mesh mesh = makeMesh({{"x", 4}});
  auto from = makeShardLayout(mesh, f32({8, 4}), DimAxes{{AxisRef::sub("x", 1, 2)}, {}});
  auto to = makeShardLayout(mesh, f32({8, 4}), DimAxes{{ax("x")}, {}});
  checkReshard(mesh, from, to);
  auto moved = makeShardLayout(mesh, f32({8, 4}),
                               DimAxes{{AxisRef::sub("x", 2, 2)}, {AxisRef::sub("x", 1, 2)}});
  checkReshard(mesh, from, moved);
  checkReshard(mesh, moved, from);
}

TEST_CASE("a sub-axis and its whole axis share a prefix: a slice, or a gather of the rest") {
  Mesh mesh = makeMesh({{"x", 4}});
  auto major = makeShardLayout(mesh, f32({8, 4}), DimAxes{{AxisRef::sub("x", 1, 2)}, {}});
  auto whole = makeShardLayout(mesh, f32({8, 4}), DimAxes{{ax("x")}, {}});
  // "x" is "x":(1)2 then "x":(2)2: adding the minor half is a local slice.
  ReshardPlan slice = planReshard(mesh, major, whole);
  CHECK(kinds(slice) == std::vector<StepKind>{StepKind::AllSlice});
  CHECK(slice.bytesReceived == 0);
  CHECK(checkReshard(mesh, major, whole) == kinds(slice));
  // Dropping it gathers the minor half only: each device receives its
  // partner's 2x4 f32 piece (32 bytes), 128 in all (all of x: 384).
  ReshardPlan gather = planReshard(mesh, whole, major);
  REQUIRE(kinds(gather) == std::vector<StepKind>{StepKind::AllGather});
  CHECK(gather.steps[0].step.axes == std::vector<AxisRef>{AxisRef::sub("x", 2, 2)});
  CHECK(gather.bytesReceived == 128);
  CHECK(checkReshard(mesh, whole, major) == kinds(gather));
}

TEST_CASE("steps over every part of an axis are spelled over the whole axis") {
  Mesh mesh = makeMesh({{"x", 4}});
  auto split = makeShardLayout(mesh, f32({2, 8}),
                               DimAxes{{AxisRef::sub("x", 1, 2)}, {AxisRef::sub("x", 2, 2)}});
  auto replicated = makeShardLayout(mesh, f32({2, 8}), DimAxes{{}, {}});
  ReshardPlan plan = planReshard(mesh, split, replicated);
  for (const PlannedStep &planned : plan.steps)
    for (const AxisRef &axis : planned.step.axes)
      CHECK(axis.isSubAxis()); // a gather per dim, each over its half of x
  CHECK(checkReshard(mesh, split, replicated) == kinds(plan));
  auto merged = makeShardLayout(mesh, f32({2, 8}), DimAxes{{}, {AxisRef::sub("x", 1, 2)}});
  auto whole = makeShardLayout(mesh, f32({2, 8}), DimAxes{{}, {ax("x")}});
  CHECK(kinds(planReshard(mesh, merged, whole)) == std::vector<StepKind>{StepKind::AllSlice});
  CHECK(checkReshard(mesh, merged, whole) == std::vector<StepKind>{StepKind::AllSlice});
}

TEST_CASE("random reshards between layouts of uneven shapes are exact") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 3}});
  std::vector<DimAxes> layouts = {{{}, {}},
                                  {{ax("x")}, {}},
                                  {{}, {ax("y")}},
                                  {{ax("x")}, {ax("y")}},
                                  {{ax("y")}, {ax("x")}},
                                  {{ax("x"), ax("y")}, {}},
                                  {{ax("y"), ax("x")}, {}},
                                  {{}, {ax("x"), ax("y")}},
                                  {{ax("y")}, {}}};
  for (const Shape &shape : {Shape{6, 6}, Shape{5, 7}, Shape{1, 4}}) {
    for (const auto &a : layouts)
      for (const auto &b : layouts) {
        auto from = makeShardLayout(mesh, f32(shape), a);
        auto to = makeShardLayout(mesh, f32(shape), b);
        checkReshard(mesh, from, to);
      }
  }
}
