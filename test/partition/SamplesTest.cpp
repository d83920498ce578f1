// The samples partitioned end to end (simulated) and their manifests.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/OpKind.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/Partitioner.h"
#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("every sample, propagated and partitioned, computes what the interpreter does") {
  for (const char *name : {"mlp", "attention", "dp_grad_step", "nx_sharding"}) {
    CAPTURE(name);
    Graph graph = loadSampleGraph(name);
    propagateInPlace(graph);
    for (uint64_t seed : {1, 2})
      CHECK(checkPartitionedEqualsInterpreter(graph, seed) == "");
  }
}

TEST_CASE("samples as written (unannotated values replicated) are partitioned exactly") {
  for (const char *name : {"mlp", "attention", "dp_grad_step", "nx_sharding"}) {
    CAPTURE(name);
    Graph graph = loadSampleGraph(name);
    CHECK(checkPartitionedEqualsInterpreter(graph, 7) == "");
  }
}

TEST_CASE("the Megatron MLP needs exactly one all_reduce, of y0's local piece") {
  Graph graph = loadSampleGraph("mlp");
  propagateInPlace(graph);
  SpmdProgram program = partitionVerified(graph);
  CommunicationManifest manifest = computeManifest(program);
  INFO(formatManifest(manifest, program));
  REQUIRE(manifest.collectives.size() == 1);
  const CollectiveRecord &allReduce = manifest.collectives[0];
  CHECK(allReduce.kind == StepKind::AllReduce);
  CHECK(allReduce.pointer == "/ops/4"); // the second dot_general
  REQUIRE(allReduce.axes.size() == 1);
  CHECK(allReduce.axes[0].name == "model");
  // y0 is 8x16 f32 split on data (2): a local 4x16 f32 = 256 bytes, sent to
  // and received from the one other device of the model group.
  REQUIRE(allReduce.traffic.size() == 4);
  for (const auto &traffic : allReduce.traffic) {
    CHECK(traffic.sent == 256);
    CHECK(traffic.received == 256);
  }
}

TEST_CASE("the attention block needs one all_reduce over model, of the output projection") {
  Graph graph = loadSampleGraph("attention");
  propagateInPlace(graph);
  SpmdProgram program = partitionVerified(graph);
  CommunicationManifest manifest = computeManifest(program);
  INFO(formatManifest(manifest, program));
  REQUIRE(manifest.collectives.size() == 1);
  CHECK(manifest.collectives[0].kind == StepKind::AllReduce);
  CHECK(manifest.collectives[0].pointer == "/ops/16");
  // y: 2x8x16 f32 with batch on data: local 1x8x16 f32 = 512 bytes.
  for (const auto &traffic : manifest.collectives[0].traffic)
    CHECK(traffic.sent == 512);
}

TEST_CASE("no sample's program moves a value to one layout twice") {
  // The minimum the partitioner can reach without changing plans: every
  // (value, target layout) pair is resharded at most once, however many ops
  // read it. A step of the graph's own collectives (inside manual bodies)
  // is the user's and may repeat.
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(fs::path(SHARDGEN_SOURCE_DIR) / "samples"))
    if (entry.path().extension() == ".json")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() >= 4);
  for (const std::string &name : names) {
    CAPTURE(name);
    Graph graph = loadSampleGraph(name);
    propagateInPlace(graph);
    SpmdProgram program = partitionVerified(graph);
    std::vector<std::pair<SpmdValueId, SpmdValueId>> moves; // (input, output) per reshard step
    for (const SpmdStep &step : program.steps) {
      bool usersCollective = step.op && isCollective(step.op->kind);
      if (step.kind == StepKind::Compute || usersCollective || step.inputs.size() != 1)
        continue;
      for (const auto &[input, output] : moves)
        if (input == step.inputs[0])
          CHECK_FALSE(sameLayout(program.layout(output), program.layout(step.outputs[0])));
      moves.emplace_back(step.inputs[0], step.outputs[0]);
    }
  }
}
