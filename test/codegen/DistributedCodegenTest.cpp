// Distributed values in generated code: the per-device call style (what an
// AOT application's runSharded calls) takes and returns [k, shard_shape...]
// buffers, ignores the padding it reads and writes zeros there; chunk-wise
// ops walk the chunks; the seed's batch reduction communicates nothing.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/partition/CommunicationManifest.h"
#include "runtime/include/shardgen/distribution.h"
#include "runtime/include/shardgen/launch.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::testing;
namespace rt = shardgen::runtime;

namespace {

// x [3, 7, 5] by [2, 2, 2] on a 2x3 mesh (the seed's first example); y is
// computed chunk by chunk (its distribution is written on the op, as
// propagation writes it) and leaves in the same distribution.
const char *kGraph = R"({"format": "shardgen-graph", "version": 1, "name": "chunks",
  "meshes": [{"name": "cores", "axes": [{"name": "r", "size": 2}, {"name": "c", "size": 3}]}],
  "inputs": [{"name": "x", "type": "tensor<3x7x5xf32>",
              "distribution": {"mesh": "cores", "shard_shape": [2, 2, 2]}}],
  "ops": [{"op": "log", "operands": ["x"], "result": "y",
           "distribution": {"mesh": "cores", "shard_shape": [2, 2, 2]}}],
  "outputs": [{"value": "y", "distribution": {"mesh": "cores", "shard_shape": [2, 2, 2]}}]})";

using Entry = void(const void *device, const void *const *inputs, void *const *outputs,
                   int32_t globalTensors);

} // namespace

TEST_CASE("per-device call style: [k, shard_shape...] buffers, padding ignored and zeroed") {
  Graph graph = loadVerified(kGraph);
  SpmdProgram program = partitionVerified(graph);
  CHECK(computeManifest(program).collectives.empty()); // log runs where the chunks live
  GeneratedProgram generated = generateProgram(program);
  CHECK(generated.header.find("distribution") != std::string::npos);
  CompiledProgram compiled(program, generated);
  auto *entry = compiled.module().lookupFunction<Entry>(deviceEntryPoint(generated));

  std::vector<Literal> inputs = randomInputs(graph, 5);
  for (int64_t e = 0; e < inputs[0].numElements(); ++e) // log needs positive values
    inputs[0].setFloat(e, 1.0 + std::fabs(inputs[0].getFloat(e)));
  Literal expected = evaluate(graph, inputs)[0];

  // The runtime's round-robin helper deals row-major over the grid, as
  // row_major over the mesh: each device's [k, 2, 2, 2] buffer.
  rt::RoundRobinLayout layout({3, 7, 5}, {2, 2, 2}, {2, 3});
  rt::DeviceBuffers in = layout.scatter(inputs[0].data(), 4);
  rt::DeviceBuffers want = layout.scatter(expected.data(), 4);
  // Padding the program must not read: NaN (log would keep it).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int64_t chunk = 0; chunk < layout.numChunks(); ++chunk) {
    rt::ShardBox box = layout.chunkBox(chunk);
    float *base = reinterpret_cast<float *>(in[layout.deviceOfChunk(chunk)].data()) +
                  layout.slotOfChunk(chunk) * 8;
    for (int64_t e = 0; e < 8; ++e)
      if (e / 4 >= box.extent[0] || e / 2 % 2 >= box.extent[1] || e % 2 >= box.extent[2])
        base[e] = nan;
  }
  rt::DeviceBuffers out(6);
  for (int64_t p = 0; p < 6; ++p) {
    CHECK(program.layout(program.outputs[0]).extentsOf(p) ==
          Shape{static_cast<int64_t>(layout.chunksOn(p).size()), 2, 2, 2});
    out[p].assign(want[p].size(), std::byte{0x7f}); // not zero: padding must be written
  }
  rt::DeviceMesh mesh({{"r", 2}, {"c", 3}});
  rt::launch(mesh, [&](const rt::DeviceContext &device) {
    const void *inputPointers[] = {in[device.position].data()};
    void *outputPointers[] = {out[device.position].data()};
    entry(&device, inputPointers, outputPointers, 0);
  });
  for (int64_t p = 0; p < 6; ++p) {
    CAPTURE(p);
    CHECK(out[p] == want[p]); // log of each real element (bit-exact), zero padding
  }
}

TEST_CASE("the seed's reduction over the batch dim communicates nothing") {
  Graph graph = loadVerified(sample("nd_batch_reduce"));
  SpmdProgram program = partitionVerified(graph);
  // The distribution spreads to both reduces: they run where the sticks live.
  const CommunicationManifest manifest = computeManifest(program);
  CHECK(manifest.collectives.empty());
  CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
}
