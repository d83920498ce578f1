// The samples partitioned end to end (simulated) and their manifests.

#include <doctest/doctest.h>

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
