// The samples partitioned end to end (simulated) and their manifests.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/OpKind.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/partition/Reshard.h"
#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("every sample, propagated and partitioned, computes what the interpreter does") {
  for (const char *name : {"mlp", "attention", "attention_heads", "dp_grad_step", "nx_sharding"}) {
    CAPTURE(name);
    Graph graph = loadSampleGraph(name);
    propagateInPlace(graph);
    for (uint64_t seed : {1, 2})
      CHECK(checkPartitionedEqualsInterpreter(graph, seed) == "");
  }
}

TEST_CASE("samples as written (unannotated values replicated) are partitioned exactly") {
  for (const char *name : {"mlp", "attention", "attention_heads", "dp_grad_step", "nx_sharding"}) {
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

TEST_CASE("attention with head reshapes keeps heads on sub-axes of model: two all_reduces") {
  // Heads split and merged by reshapes: 2 heads x 8 = 16 on model (4), so
  // the heads take "model":(1)2 and the head dim "model":(2)2. Both
  // reshapes are local; what moves is inherent to the shardings: the
  // scores, partial over the head dim's "model":(2)2 (a 1x1x8x8 f32 piece,
  // 256 bytes to the one partner), and the output projection, partial over
  // model (a 1x8x16 f32 piece, 512 bytes to each of 3 partners).
  Graph graph = loadSampleGraph("attention_heads");
  propagateInPlace(graph);
  SpmdProgram program = partitionVerified(graph);
  CommunicationManifest manifest = computeManifest(program);
  INFO(formatManifest(manifest, program));
  REQUIRE(manifest.collectives.size() == 2);
  CHECK(manifest.collectives[0].kind == StepKind::AllReduce);
  CHECK(manifest.collectives[0].axes == std::vector<AxisRef>{AxisRef::sub("model", 2, 2)});
  CHECK(manifest.collectives[1].kind == StepKind::AllReduce);
  CHECK(manifest.collectives[1].pointer == "/ops/21");
  int64_t total = 0;
  for (const CollectiveRecord &record : manifest.collectives)
    for (const DeviceTraffic &traffic : record.traffic)
      total += traffic.sent;
  CHECK(total == 8 * 256 + 8 * 3 * 512);
  // Replicating the merged factors instead (the partitioner before sub-axes)
  // gathers ctx_t's heads and head dim over model before the merge: each
  // device receives a 1x8x1x4 f32 piece (128 bytes), then a 1x8x2x4 one
  // (256 bytes), 3072 bytes more on the 8 devices.
  auto named = std::find_if(graph.values.begin(), graph.values.end(),
                            [](const Value &value) { return value.name == "ctx_t"; });
  REQUIRE(named != graph.values.end());
  const ShardLayout &ctx = program.layout(program.held[named - graph.values.begin()]);
  ShardLayout replicatedFactors =
      makeShardLayout(program.mesh, ctx.globalType, DimAxes{{AxisRef::full("data")}, {}, {}, {}});
  const int64_t replicating = planReshard(program.mesh, ctx, replicatedFactors).bytesReceived;
  CHECK(replicating == 8 * (128 + 256));
  CHECK(total == 14336);
  CHECK(total + replicating == 17408); // what replicating the factors moved
}

TEST_CASE("no sample's program moves a value to one layout twice") {
  // The minimum the partitioner can reach without changing plans: every
  // (value, target layout) pair is resharded at most once, however many ops
  // read it. A step of the graph's own collectives (inside manual bodies)
  // is the user's and may repeat.
  const std::vector<std::string> names = sampleGraphNames();
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
