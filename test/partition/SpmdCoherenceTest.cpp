// The SPMD coherence check: it accepts what the partitioner produces (here
// and in every test that partitions, through PartitionTestUtil) and catches
// programs broken on purpose, naming the op and the two devices.

#include <doctest/doctest.h>

#include <map>
#include <tuple>

#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/partition/SpmdCoherence.h"
#include "test/partition/PartitionTestUtil.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// The message of the SpmdCoherenceError `program` raises ("" if none).
std::string incoherence(const SpmdProgram &program) {
  try {
    verifySpmdCoherence(program);
  } catch (const SpmdCoherenceError &error) {
    return error.what();
  }
  return "";
}

/// The Megatron MLP: one all_reduce (/ops/4) over model on a data x model
/// 2x2 mesh; device positions 0..3 are (data, model) row-major, so the
/// model groups are {0, 1} and {2, 3}. y0's local pieces are 4x16.
struct MlpProgram {
  Graph graph = loadSampleGraph("mlp");
  SpmdProgram program;
  SpmdStep *allReduce = nullptr;

  MlpProgram() {
    propagateInPlace(graph);
    program = partitionProgram(graph);
    for (SpmdStep &step : program.steps)
      if (step.kind == StepKind::AllReduce)
        allReduce = &step;
    REQUIRE(allReduce);
    REQUIRE(incoherence(program) == "");
  }
  ShardLayout &input() { return program.values[allReduce->inputs[0]].layout; }
  ShardLayout &output() { return program.values[allReduce->outputs[0]].layout; }
};

/// Whether some group of `step` holds pieces of different shapes: the code
/// generator then gathers through padded slots.
bool piecesDifferWithinGroups(const SpmdProgram &program, const SpmdStep &step) {
  const ShardLayout &input = program.layout(step.inputs[0]);
  for (int64_t device = 0; device < program.mesh.numDevices(); ++device)
    for (int64_t member : groupDevices(program.mesh, step.axes, device))
      if (input.extentsOf(member) != input.extentsOf(device))
        return true;
  return false;
}

} // namespace

TEST_CASE("coherence: a device expecting another size than its group gives is caught") {
  MlpProgram mlp;
  mlp.output().overridePieceForTest(3, mlp.output().offsetsOf(3), {3, 16});
  CHECK(incoherence(mlp.program) ==
        "/ops/4: all_reduce step: devices 3 and 2 disagree: device 3 expects [3x16], the "
        "pieces of its group (first device 2) make [4x16]");
  try {
    verifySpmdCoherence(mlp.program);
  } catch (const SpmdCoherenceError &error) {
    CHECK(error.pointer() == "/ops/4");
    CHECK(error.deviceA() == 3);
    CHECK(error.deviceB() == 2);
  }
}

TEST_CASE("coherence: members sending different sizes to one all_reduce are caught") {
  MlpProgram mlp;
  mlp.input().overridePieceForTest(1, mlp.input().offsetsOf(1), {4, 8});
  CHECK(incoherence(mlp.program) == "/ops/4: all_reduce step: devices 0 and 1 disagree: "
                                    "device 0 sends [4x16], device 1 sends [4x8]");
}

TEST_CASE("coherence: group axes that repeat an axis or leave the mesh are caught") {
  MlpProgram mlp;
  mlp.allReduce->axes = {AxisRef::full("model"), AxisRef::full("model")};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: all_reduce step: device 0: groups over \"model\" twice");
  mlp.allReduce->axes = {AxisRef::sub("model", 1, 2), AxisRef::full("model")};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: all_reduce step: device 0: groups over \"model\" twice");
  mlp.allReduce->axes = {AxisRef::full("pipeline")};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: all_reduce step: device 0: groups over \"pipeline\", not an axis of the mesh");
  mlp.allReduce->axes = {AxisRef::sub("model", 2, 2)};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: all_reduce step: device 0: groups over \"model\":(2)2, not a sub-axis of the "
        "mesh");
}

TEST_CASE("coherence: a collective that changes the element type is caught") {
  MlpProgram mlp;
  mlp.output().globalType.elementType = ElementType::F64;
  CHECK(incoherence(mlp.program) ==
        "/ops/4: all_reduce step: device 0: sends f32 and receives f64");
}

TEST_CASE("coherence: collective_permute pairs with two senders to a device are caught") {
  MlpProgram mlp;
  SpmdStep &step = *mlp.allReduce;
  step.kind = StepKind::CollectivePermute;
  step.pairs = {{0, 1}, {1, 0}, {2, 3}, {3, 2}};
  for (int64_t device = 0; device < 4; ++device)
    mlp.output().overridePieceForTest(device, mlp.input().offsetsOf(device),
                                      mlp.input().extentsOf(device));
  REQUIRE(incoherence(mlp.program) == "");
  step.pairs = {{0, 1}, {2, 0}};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: collective_permute step: devices 2 and 0 disagree: a pair across groups");
  step.pairs = {{0, 1}, {1, 1}};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: collective_permute step: devices 0 and 1 disagree: both send to device 1");
  step.pairs = {{0, 4}};
  CHECK(incoherence(mlp.program) == "/ops/4: collective_permute step: device 0: pair (0, 4) "
                                    "names a device outside the mesh of 4");
  step.pairs = {{0, 1}};
  mlp.input().overridePieceForTest(0, {0, 0}, {2, 16});
  mlp.output().overridePieceForTest(0, {0, 0}, {2, 16});
  CHECK(incoherence(mlp.program) == "/ops/4: collective_permute step: devices 1 and 0 disagree: "
                                    "device 1 expects [4x16], device 0 sends [2x16]");
  mlp.output().overridePieceForTest(2, mlp.output().offsetsOf(2), {2, 16});
  step.pairs = {};
  CHECK(incoherence(mlp.program) ==
        "/ops/4: collective_permute step: device 2: device 2 expects [2x16], device 2 sends "
        "[4x16]");
}

TEST_CASE("coherence: every kind of collective of the random programs, broken on one device") {
  // Seeds 0-199 hold every kind of communication step (see RandomGraphTest),
  // body collectives of manual computations, and groups holding pieces of
  // different sizes (the code generator's padded slots). Each program
  // passes; the first step of each such kind whose result has a dimension,
  // given a longer piece on its last device, fails at that step.
  std::map<std::tuple<StepKind, bool, bool>, int> caught;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    Graph graph = loadGraph(randomGraphJson(seed));
    propagateInPlace(graph);
    SpmdProgram program = partitionProgram(graph);
    REQUIRE(incoherence(program) == "");
    for (const SpmdStep &step : program.steps) {
      if (!isCommunication(step.kind) || program.layout(step.outputs.at(0)).rank() == 0)
        continue;
      auto kind = std::make_tuple(step.kind, isBodyCollective(step),
                                  piecesDifferWithinGroups(program, step));
      // (A redistribution's empty piece cannot be broken: no real element.)
      if (caught[kind] ||
          (step.kind == StepKind::Redistribute &&
           program.layout(step.outputs[0]).localElements(program.mesh.numDevices() - 1) == 0))
        continue;
      CAPTURE(stepKindName(step.kind));
      SpmdProgram broken = program;
      const int64_t last = program.mesh.numDevices() - 1;
      ShardLayout &layout = broken.values[step.outputs[0]].layout;
      Shape longer = layout.extentsOf(last);
      // A redistribution (a halo exchange) fills whatever box a piece is
      // inside the tensor: its broken piece reaches past the tensor's end.
      longer[0] = step.kind == StepKind::Redistribute
                      ? layout.globalType.shape[0] - layout.offset(last, 0) + 1
                      : longer[0] + 1;
      layout.overridePieceForTest(last, layout.offsetsOf(last), longer);
      try {
        verifySpmdCoherence(broken);
        FAIL("not caught");
      } catch (const SpmdCoherenceError &error) {
        CHECK(error.pointer() == step.pointer);
        CHECK(error.deviceA() == last);
        ++caught[kind];
      }
    }
  }
  std::map<StepKind, int> kinds;
  int body = 0, padded = 0;
  for (const auto &[kind, count] : caught) {
    kinds[std::get<0>(kind)] += count;
    body += std::get<1>(kind) * count;
    padded += std::get<2>(kind) * count;
  }
  for (StepKind kind : {StepKind::AllGather, StepKind::AllToAll, StepKind::CollectivePermute,
                        StepKind::AllReduce, StepKind::ReduceScatter, StepKind::Broadcast}) {
    CAPTURE(stepKindName(kind));
    CHECK(kinds[kind] >= 1);
  }
  MESSAGE("caught " << caught.size() << " broken kinds of step, " << body << " body collectives, "
                    << padded << " with padded slots");
  CHECK(body >= 2);
  CHECK(padded >= 2);
}
