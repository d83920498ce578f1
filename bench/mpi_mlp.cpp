// samples/mlp.json scaled to a few GFLOP, run by the MPI backend as
// `shardgen run --backend mpi` runs it (rank 0 holds the global tensors,
// sends each rank the pieces its devices read, merges the outputs);
// the time of one run and of its parts (best of 5, or of
// $SHARDGEN_BENCH_ROUNDS, after a warm-up; JIT excluded) is printed by
// rank 0. Run as
//   mpirun -np R bench_mpi_mlp DATA MODEL [BATCH IN HIDDEN]
// on a mesh data=DATA x model=MODEL; bench/README.md compares
//   1 device (1 1, one rank) with 2 ranks (2 1, -np 2): data parallel;
//   2 ranks x 1 thread (2 1, -np 2) with 1 rank x 2 threads (2 1, -np 1).

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/codegen/RankPieces.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/pipeline/Pipeline.h"
#include "shardgen/mpi.h"

using namespace shardgen;

namespace {

/// samples/mlp.json with its sizes replaced.
std::string mlpJson(int64_t data, int64_t model, int64_t batch, int64_t in, int64_t hidden) {
  auto t = [](int64_t a, int64_t b) {
    return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>";
  };
  return R"({"format": "shardgen-graph", "version": 1, "name": "mlp",
  "meshes": [{"name": "mesh", "axes": [{"name": "data", "size": )" +
         std::to_string(data) + R"(}, {"name": "model", "size": )" + std::to_string(model) +
         R"(}]}],
  "inputs": [
    {"name": "x", "type": ")" +
         t(batch, in) + R"(", "sharding": "<@mesh, [{data}, {}]>"},
    {"name": "w1", "type": ")" +
         t(in, hidden) + R"(", "sharding": "<@mesh, [{}, {model}]>"},
    {"name": "b1", "type": "tensor<)" +
         std::to_string(hidden) + R"(xf32>", "sharding": "<@mesh, [{model}]>"},
    {"name": "w2", "type": ")" +
         t(hidden, in) + R"(", "sharding": "<@mesh, [{model}, {}]>"},
    {"name": "b2", "type": "tensor<)" +
         std::to_string(in) + R"(xf32>", "sharding": "<@mesh, [{}]>"}],
  "ops": [
    {"op": "dot_general", "operands": ["x", "w1"], "result": "h0",
     "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
    {"op": "broadcast_in_dim", "operands": ["b1"], "result": "b1_full",
     "type": ")" +
         t(batch, hidden) + R"(", "broadcast_dimensions": [1]},
    {"op": "add", "operands": ["h0", "b1_full"], "result": "h1"},
    {"op": "tanh", "operands": ["h1"], "result": "h"},
    {"op": "dot_general", "operands": ["h", "w2"], "result": "y0",
     "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
    {"op": "broadcast_in_dim", "operands": ["b2"], "result": "b2_full",
     "type": ")" +
         t(batch, in) + R"(", "broadcast_dimensions": [1]},
    {"op": "add", "operands": ["y0", "b2_full"], "result": "y"}],
  "outputs": [{"value": "y", "sharding": "<@mesh, [{data}, {}]>"}]})";
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3 && argc != 6) {
    std::fprintf(stderr, "usage: mpirun -np R %s DATA MODEL [BATCH IN HIDDEN]\n", argv[0]);
    return 2;
  }
  const char *roundsText = std::getenv("SHARDGEN_BENCH_ROUNDS");
  const int rounds = roundsText ? std::max(1, std::atoi(roundsText)) : 5;
  const int64_t data = std::atoll(argv[1]), model = std::atoll(argv[2]);
  const int64_t batch = argc == 6 ? std::atoll(argv[3]) : 512;
  const int64_t in = argc == 6 ? std::atoll(argv[4]) : 1024;
  const int64_t hidden = argc == 6 ? std::atoll(argv[5]) : 2048;
  const runtime::MpiWorld world = runtime::initializeMpi();
  pipeline::CompiledGraph passes =
      pipeline::compileGraph([&] { return readGraph(mlpJson(data, model, batch, in, hidden)); });
  const SpmdProgram &program = *passes.program;
  const CompiledProgram &compiled = *passes.compiled;
  std::vector<Literal> inputs;
  for (SpmdValueId id : program.inputs)
    inputs.emplace_back(program.layout(id).globalType);
  for (Literal &input : inputs) { // small values: tanh stays in its interesting range
    for (int64_t i = 0; i < input.numElements(); ++i)
      input.as<float>()[i] = static_cast<float>(i % 17) * 0.01f;
  }
  std::vector<std::vector<std::vector<runtime::ShardBox>>> pieces; // [input][rank]
  for (SpmdValueId id : program.inputs)
    pieces.push_back(piecesByRank(program.layout(id), program.mesh, world.size));
  // One run as `shardgen run --backend mpi` does it, in three timed parts
  // (seconds): inputs from rank 0, the devices, outputs to rank 0.
  auto runOnce = [&](double parts[3]) {
    double start = MPI_Wtime();
    for (size_t i = 0; i < inputs.size(); ++i)
      runtime::scatterBoxesFromRoot(inputs[i].data(), inputs[i].type().shape, 4, pieces[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    double devices = MPI_Wtime();
    std::vector<Literal> outputs = compiled.run(
        inputs, [](const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
          runtime::launchMpi(mesh, function);
        });
    MPI_Barrier(MPI_COMM_WORLD);
    double merge = MPI_Wtime();
    for (Literal &output : outputs)
      runtime::mergeDisjointToRoot(output.data(), static_cast<int64_t>(output.byteSize()));
    parts[0] = devices - start;
    parts[1] = merge - devices;
    parts[2] = MPI_Wtime() - merge;
  };
  double parts[3];
  runOnce(parts); // warm up
  double best = 1e30, bestParts[3] = {1e30, 1e30, 1e30};
  for (int round = 0; round < rounds; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    runOnce(parts);
    double slowest[3] = {0, 0, 0};
    MPI_Allreduce(parts, slowest, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = std::min(best, slowest[0] + slowest[1] + slowest[2]);
    for (int i = 0; i < 3; ++i)
      bestParts[i] = std::min(bestParts[i], slowest[i]);
  }
  if (world.rank == 0)
    std::printf("mesh data=%lld model=%lld on %d rank(s), %.2f GFLOP: %.1f ms per run "
                "(best parts: inputs %.1f ms, devices %.1f ms, outputs %.1f ms)\n",
                static_cast<long long>(data), static_cast<long long>(model), world.size,
                4.0 * batch * in * hidden / 1e9, best * 1e3, bestParts[0] * 1e3, bestParts[1] * 1e3,
                bestParts[2] * 1e3);
  runtime::finalizeMpi();
  return 0;
}
