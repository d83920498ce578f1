// The communication manifest: exact bytes per device with uneven pieces,
// and peak buffer memory from liveness.

#include <doctest/doctest.h>

#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/Reshard.h"
#include "test/partition/MeshTestUtil.h"

using namespace shardgen;
using shardgen::testing::f32;
using shardgen::testing::makeMesh;

TEST_CASE("an all_gather of uneven pieces counts each device's real bytes") {
  Mesh mesh = makeMesh({{"x", 4}});
  SpmdProgram program;
  program.mesh = mesh;
  // 5 elements on x: pieces of 2, 2, 1, 0 elements.
  program.values.push_back(
      SpmdValue{"v", makeShardLayout(mesh, f32({5}), DimAxes{{AxisRef::full("x")}}), -1});
  program.inputs = {0};
  program.outputs = {appendReshard(program, 0, makeShardLayout(mesh, f32({5}), DimAxes{{}}),
                                   nullptr, "/outputs/0")};
  CommunicationManifest manifest = computeManifest(program);
  REQUIRE(manifest.collectives.size() == 1);
  const auto &gather = manifest.collectives[0];
  CHECK(gather.kind == StepKind::AllGather);
  CHECK(gather.pointer == "/outputs/0");
  // Device 0 sends its 8 bytes to 3 others and receives 2+1+0 elements.
  CHECK(gather.traffic[0].sent == 24);
  CHECK(gather.traffic[0].received == 12);
  CHECK(gather.traffic[2].sent == 12);
  CHECK(gather.traffic[2].received == 16);
  CHECK(gather.traffic[3].sent == 0);
  CHECK(gather.traffic[3].received == 20);
  // Peak: the piece and the gathered 20 bytes live together in the gather.
  CHECK(manifest.peakBufferBytes == std::vector<int64_t>{28, 28, 24, 20});
  std::string text = formatManifest(manifest, program);
  CHECK(text.find("all_gather") != std::string::npos);
  CHECK(text.find("d3: 0/20") != std::string::npos);
}

TEST_CASE("a local slice moves nothing and frees the whole input after it") {
  Mesh mesh = makeMesh({{"x", 4}});
  SpmdProgram program;
  program.mesh = mesh;
  program.values.push_back(SpmdValue{"v", makeShardLayout(mesh, f32({8}), DimAxes{{}}), -1});
  program.inputs = {0};
  program.outputs = {appendReshard(
      program, 0, makeShardLayout(mesh, f32({8}), DimAxes{{AxisRef::full("x")}}), nullptr, "")};
  CommunicationManifest manifest = computeManifest(program);
  CHECK(manifest.collectives.empty());
  CHECK(manifest.peakBufferBytes == std::vector<int64_t>(4, 32 + 8));
}
