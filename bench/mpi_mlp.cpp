// samples/mlp.json scaled to a few GFLOP, run by the MPI backend as
// `shardgen run --backend mpi` runs it (rank 0 holds the global tensors,
// broadcasts the inputs whole where run sends each rank its pieces (nearly
// the same bytes here: the weights are replicated), merges the outputs);
// the time of one run (best of 5,
// after a warm-up; JIT excluded) is printed by rank 0. Run as
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
  // One run as `shardgen run --backend mpi` does it; `runSeconds` gets the
  // devices' part alone (no broadcast of the inputs, no merge of outputs).
  auto runOnce = [&](double &runSeconds) {
    for (Literal &input : inputs)
      runtime::broadcastFromRoot(input.data(), static_cast<int64_t>(input.byteSize()));
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    std::vector<Literal> outputs = compiled.run(
        inputs, [](const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
          runtime::launchMpi(mesh, function);
        });
    runSeconds = MPI_Wtime() - start;
    for (Literal &output : outputs)
      runtime::mergeDisjointToRoot(output.data(), static_cast<int64_t>(output.byteSize()));
  };
  double ignored = 0;
  runOnce(ignored); // warm up
  double best = 1e30, bestRun = 1e30;
  for (int round = 0; round < 5; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime(), run = 0;
    runOnce(run);
    double mine[2] = {MPI_Wtime() - start, run}, slowest[2] = {0, 0};
    MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = std::min(best, slowest[0]);
    bestRun = std::min(bestRun, slowest[1]);
  }
  if (world.rank == 0)
    std::printf("mesh data=%lld model=%lld on %d rank(s), %.2f GFLOP: %.1f ms per run "
                "(devices alone: %.1f ms)\n",
                static_cast<long long>(data), static_cast<long long>(model), world.size,
                4.0 * batch * in * hidden / 1e9, best * 1e3, bestRun * 1e3);
  runtime::finalizeMpi();
  return 0;
}
