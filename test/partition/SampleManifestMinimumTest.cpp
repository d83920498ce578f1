// Every sample's manifest against a minimum computed here, independently of
// the partitioner's reshard planner: per reshard (a chain of steps from one
// value's layout to the layout a consumer wants), what each device must at
// least receive under the manifest's direct-exchange model.
//
// For a device d with source piece S(d) and target piece T(d) (boxes of the
// global tensor) and g the devices whose partial sums the reshard reduces
// (the source's partial axes the target does not keep): every element of
// T(d) needs g contributions, and d holds one of them itself exactly for the
// elements of T(d) n S(d). So d receives at least g |T(d)| - |T(d) n S(d)|
// elements. (all_gather, all_to_all, reduce_scatter and all_reduce each
// reach it when used alone; two collectives where one would do, or an
// all_reduce where a reduce_scatter suffices, exceed it.)

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compiler/ir/OpKind.h"
#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/Partitioner.h"
#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// Steps the partitioner planned to move a value to another layout. Not
/// Alias and Broadcast: they leave a manual computation body, whose pieces
/// are no boxes of one global tensor (members of a group hold different
/// values under the same box), so the box minimum does not apply.
bool isReshardStep(const SpmdStep &step) {
  if (step.kind == StepKind::Compute || step.kind == StepKind::Alias ||
      step.kind == StepKind::Broadcast || isBodyCollective(step))
    return false;
  return step.inputs.size() == 1 && step.outputs.size() == 1;
}

/// A reshard: consecutive reshard steps [first, last], each reading the
/// previous one's output and no other step reading that intermediate value.
struct Chain {
  size_t first = 0, last = 0;
};

std::vector<Chain> reshardChains(const SpmdProgram &program) {
  std::vector<int64_t> uses(program.values.size(), 0);
  for (const SpmdStep &step : program.steps)
    for (SpmdValueId input : step.inputs)
      ++uses[input];
  for (SpmdValueId live : program.liveOutValues())
    ++uses[live];
  std::vector<Chain> chains;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const SpmdStep &step = program.steps[s];
    if (!isReshardStep(step))
      continue;
    bool extends = !chains.empty() && chains.back().last + 1 == s &&
                   program.steps[s - 1].outputs[0] == step.inputs[0] && uses[step.inputs[0]] == 1;
    if (extends)
      chains.back().last = s;
    else
      chains.push_back(Chain{s, s});
  }
  return chains;
}

/// Elements of the intersection of two devices' pieces.
int64_t commonElements(const ShardLayout &a, const ShardLayout &b, int64_t device) {
  int64_t elements = 1;
  for (int64_t dim = 0; dim < a.rank(); ++dim) {
    int64_t begin = std::max(a.offset(device, dim), b.offset(device, dim));
    int64_t end = std::min(a.offset(device, dim) + a.extent(device, dim),
                           b.offset(device, dim) + b.extent(device, dim));
    elements *= std::max<int64_t>(0, end - begin);
  }
  return elements;
}

/// The devices whose partial sums a reshard from `source` to `target` adds up.
int64_t reducedGroupSize(const Mesh &mesh, const ShardLayout &source, const ShardLayout &target) {
  std::vector<AxisRef> reduced;
  for (const AxisRef &axis : source.partialAxes)
    if (std::find(target.partialAxes.begin(), target.partialAxes.end(), axis) ==
        target.partialAxes.end())
      reduced.push_back(axis);
  return axesSize(mesh, reduced);
}

/// Bytes device `device` must at least receive (see the file comment).
int64_t minimumReceived(const Mesh &mesh, const ShardLayout &source, const ShardLayout &target,
                        int64_t device) {
  int64_t g = reducedGroupSize(mesh, source, target);
  int64_t width = static_cast<int64_t>(elementByteWidth(target.globalType.elementType));
  return (g * target.localElements(device) - commonElements(source, target, device)) * width;
}

int64_t totalMinimum(const Mesh &mesh, const ShardLayout &source, const ShardLayout &target) {
  int64_t total = 0;
  for (int64_t device = 0; device < mesh.numDevices(); ++device)
    total += minimumReceived(mesh, source, target, device);
  return total;
}

/// Whether a reshard can start from `from` at all: it cannot add partial
/// axes (a full value is not turned back into partial sums).
bool keepsPartials(const ShardLayout &from, const ShardLayout &target) {
  return std::all_of(target.partialAxes.begin(), target.partialAxes.end(), [&](const AxisRef &a) {
    return std::find(from.partialAxes.begin(), from.partialAxes.end(), a) != from.partialAxes.end();
  });
}

/// What each reshard of `program` receives beyond the minimum: one line per
/// reshard and device that differs, and one per reshard that an earlier
/// reshard of the same value could have started ("" when all are minimal).
/// Adds the number of reshards compared to `*checked`.
std::string excessOverMinimum(const SpmdProgram &program, int64_t *checked = nullptr) {
  const CommunicationManifest manifest = computeManifest(program);
  std::vector<std::vector<DeviceTraffic>> trafficOfStep(program.steps.size());
  for (const CollectiveRecord &record : manifest.collectives)
    trafficOfStep[record.step] = record.traffic;
  const Mesh &mesh = program.mesh;
  std::vector<std::pair<SpmdValueId, SpmdValueId>> done; // (source, target) per reshard
  std::string report;
  for (const Chain &chain : reshardChains(program)) {
    SpmdValueId from = program.steps[chain.first].inputs[0];
    SpmdValueId to = program.steps[chain.last].outputs[0];
    const ShardLayout &source = program.layout(from), &target = program.layout(to);
    if (source.isDistributed() || target.isDistributed())
      continue; // chunked layouts have no box per device; Redistribute is exact by construction
    if (checked)
      ++*checked;
    std::string what = program.steps[chain.first].pointer + " (";
    for (size_t s = chain.first; s <= chain.last; ++s)
      what += std::string(s == chain.first ? "" : " + ") +
              std::string(stepKindName(program.steps[s].kind));
    what += ") of " + program.values[from].name;
    int64_t total = 0;
    for (int64_t device = 0; device < mesh.numDevices(); ++device) {
      int64_t received = 0;
      for (size_t s = chain.first; s <= chain.last; ++s)
        if (!trafficOfStep[s].empty())
          received += trafficOfStep[s][device].received;
      total += received;
      int64_t minimum = minimumReceived(mesh, source, target, device);
      if (received != minimum)
        report += what + ": device " + std::to_string(device) + " receives " +
                  std::to_string(received) + " bytes, minimum " + std::to_string(minimum) + "\n";
    }
    for (const auto &[earlierSource, earlierTarget] : done) {
      const ShardLayout &start = program.layout(earlierTarget);
      if (earlierSource != from || start.isDistributed() || !keepsPartials(start, target))
        continue;
      if (int64_t shared = totalMinimum(mesh, start, target); shared < total)
        report += what + ": receives " + std::to_string(total) + " bytes, " +
                  std::to_string(shared) + " from " + program.values[earlierTarget].name +
                  " (a prefix shared with an earlier reshard)\n";
    }
    done.emplace_back(from, to);
  }
  return report;
}

/// The Megatron MLP's program, its all_reduce (of y0's partial sums over
/// `model`) and the layout of its result also split over `model` by columns.
struct MlpAllReduce {
  SpmdProgram program;
  size_t step = 0;
  ShardLayout columnsSplit;
};

MlpAllReduce mlpAllReduce() {
  Graph graph = loadSampleGraph("mlp");
  propagateInPlace(graph);
  MlpAllReduce mlp{partitionVerified(graph), 0, ShardLayout()};
  REQUIRE(excessOverMinimum(mlp.program) == "");
  const std::vector<SpmdStep> &steps = mlp.program.steps;
  mlp.step = static_cast<size_t>(
      std::find_if(steps.begin(), steps.end(),
                   [](const SpmdStep &step) { return step.kind == StepKind::AllReduce; }) -
      steps.begin());
  REQUIRE(mlp.step < steps.size());
  const ShardLayout &reduced = mlp.program.layout(steps[mlp.step].outputs[0]);
  DimAxes axes = dimAxesOf(reduced);
  REQUIRE(axes.size() == 2);
  axes[1].push_back(steps[mlp.step].axes[0]);
  mlp.columnsSplit = makeShardLayout(mlp.program.mesh, reduced.globalType, axes);
  return mlp;
}

/// Inserts a step of `kind` at `at`, from `input` to a new value of `layout`.
SpmdValueId insertStep(SpmdProgram &program, size_t at, StepKind kind, SpmdValueId input,
                       const ShardLayout &layout) {
  program.values.push_back(SpmdValue{program.values[input].name + ".new", layout, -1});
  SpmdStep step = program.steps[at - 1]; // op, pointer and axes of the all_reduce
  step.kind = kind;
  step.inputs = {input};
  step.outputs = {static_cast<SpmdValueId>(program.values.size()) - 1};
  step.dimension = 1;
  program.steps.insert(program.steps.begin() + static_cast<std::ptrdiff_t>(at), step);
  return step.outputs[0];
}

} // namespace

TEST_CASE("every sample's manifest receives exactly the computed minimum per reshard") {
  const std::vector<std::string> names = sampleGraphNames();
  REQUIRE(names.size() >= 4);
  // JAX's programs too (samples/mlir), loops and branches included.
  CHECK(std::count_if(names.begin(), names.end(),
                      [](const std::string &name) { return name.rfind("mlir/", 0) == 0; }) >= 14);
  int64_t checked = 0;
  for (const std::string &name : names) {
    // Propagated, and as written (unannotated values replicated: more
    // reshards, from the inputs' shardings to what the ops want).
    for (bool propagated : {true, false}) {
      CAPTURE(name);
      CAPTURE(propagated);
      Graph graph = loadSampleGraph(name);
      if (propagated)
        propagateInPlace(graph);
      SpmdProgram program = partitionVerified(graph);
      CHECK(excessOverMinimum(program, &checked) == "");
    }
  }
  INFO("reshards compared: " << checked);
  CHECK(checked >= 4);
}

TEST_CASE("the minimum check finds a reshard that moves more than it must") {
  // y0's all_reduce then an all_slice to columns split over model, where one
  // reduce_scatter would do: the all_reduce receives 256 bytes per device
  // (the whole 4x16 f32 piece from the other member), the minimum is 128.
  MlpAllReduce mlp = mlpAllReduce();
  SpmdProgram &program = mlp.program;
  SpmdValueId reduced = program.steps[mlp.step].outputs[0];
  SpmdValueId sliced =
      insertStep(program, mlp.step + 1, StepKind::AllSlice, reduced, mlp.columnsSplit);
  for (size_t s = mlp.step + 2; s < program.steps.size(); ++s) // the chain's only reader
    for (SpmdValueId &input : program.steps[s].inputs)
      if (input == reduced)
        input = sliced;
  std::string excess = excessOverMinimum(program);
  CHECK(excess.find("(all_reduce + all_slice) of y0") != std::string::npos);
  CHECK(excess.find("device 3 receives 256 bytes, minimum 128") != std::string::npos);
}

TEST_CASE("the minimum check finds reshards of one value that could share a prefix") {
  // Besides the all_reduce of y0, a reduce_scatter of the same partial sums
  // to columns split over model: minimal alone (128 bytes per device), but
  // the all_reduce's result already holds those columns (0 bytes to slice).
  MlpAllReduce mlp = mlpAllReduce();
  SpmdValueId partial = mlp.program.steps[mlp.step].inputs[0];
  insertStep(mlp.program, mlp.step + 1, StepKind::ReduceScatter, partial, mlp.columnsSplit);
  std::string excess = excessOverMinimum(mlp.program);
  CHECK(excess.find("(reduce_scatter) of y0: receives 512 bytes, 0 from") != std::string::npos);
  CHECK(excess.find("minimum") == std::string::npos); // each reshard alone is minimal
}
