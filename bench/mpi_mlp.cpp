// samples/mlp.json scaled to a few GFLOP: one device against 2 MPI ranks
// (Megatron model=2 and data parallel data=2) and against 1 rank x 2
// threads, every configuration once per round, rounds interleaved, in one
//   mpirun -np 2 --bind-to none bench_mpi_mlp [BATCH IN HIDDEN]
// (-np 1 runs the one-rank configurations only). JIT excluded; the best and
// the median of $SHARDGEN_BENCH_ROUNDS rounds (default 15) are printed by
// rank 0, with each configuration's speed-up over the first (one device).
// SHARDGEN_BENCH_ONLY=PREFIX runs only the configurations whose names start
// with PREFIX (for perf record/stat of one).
//
// "shards": the per-device style of the generated shardgen/mpi.h
// (runRankShards): each rank owns its devices' input pieces (weights
// included) and output pieces, allocated once, as an MPI application holds
// them; a run is the launch and the device program, nothing else.
// "global I/O": rank 0 holds the global tensors, sends each rank the pieces
// its devices read (weights included) and merges the outputs, every run (as
// the first call of `shardgen run --backend mpi`; later --repeat calls keep
// the pieces they received).
// A rank with no part in a configuration waits without spinning (on 2
// cores a busy-polling MPI barrier would take the other rank's core).

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/partition/RankPieces.h"
#include "compiler/pipeline/Pipeline.h"
#include "shardgen/mpi.h"

using namespace shardgen;

namespace {

struct Sizes {
  int64_t batch = 512, in = 1024, hidden = 2048;
};

/// samples/mlp.json with its sizes replaced.
std::string mlpJson(int64_t data, int64_t model, const Sizes &sizes) {
  auto t = [](int64_t a, int64_t b) {
    return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>";
  };
  const int64_t batch = sizes.batch, in = sizes.in, hidden = sizes.hidden;
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

/// Small values: tanh stays in its interesting range.
void fillSmall(Literal &literal) {
  for (int64_t i = 0; i < literal.numElements(); ++i)
    literal.as<float>()[i] = static_cast<float>(i % 17) * 0.01f;
}

/// Every rank reaches this before any leaves; a rank waiting for a peer
/// sleeps a millisecond between polls instead of spinning (it would take
/// a core from a one-rank configuration; waking it more often disturbs
/// that configuration's threads measurably), then every rank leaves within
/// a barrier's latency (an MPI_Barrier with every rank already there).
void politeBarrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done)
      break;
    timespec pause{0, 1000000};
    nanosleep(&pause, nullptr);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/// One mesh's program with the buffers of both call styles.
struct Program {
  pipeline::CompiledGraph passes;
  std::vector<Literal> globalInputs; // whole tensors (rank 0's are sent)
  // [input][rank]: the pieces rank r reads
  std::vector<std::vector<std::vector<runtime::ShardBox>>> pieces;
  std::vector<std::vector<Literal>> inShards, outShards; // [position][tensor], own positions
  std::vector<std::vector<const void *>> inPointers;
  std::vector<std::vector<void *>> outPointers;
};

/// Compiles the MLP on a data x model mesh; `owned(position)` says which
/// positions this process runs (their shards are allocated, once).
Program makeProgram(int64_t data, int64_t model, const Sizes &sizes, int ranks,
                    const std::function<bool(int64_t)> &owned) {
  Program p{pipeline::compileGraph([&] { return readGraph(mlpJson(data, model, sizes)); }),
            {},
            {},
            {},
            {},
            {},
            {}};
  const SpmdProgram &program = *p.passes.program;
  for (SpmdValueId id : program.inputs) {
    fillSmall(p.globalInputs.emplace_back(program.layout(id).globalType));
    p.pieces.push_back(piecesByRank(program.layout(id), program.mesh, ranks));
  }
  const int64_t devices = program.mesh.numDevices();
  p.inShards.resize(devices);
  p.outShards.resize(devices);
  p.inPointers.resize(devices);
  p.outPointers.resize(devices);
  for (int64_t position = 0; position < devices; ++position) {
    if (!owned(position))
      continue;
    for (SpmdValueId id : program.inputs)
      fillSmall(p.inShards[position].emplace_back(localBufferType(program.layout(id), position)));
    for (SpmdValueId id : program.outputs)
      p.outShards[position].emplace_back(localBufferType(program.layout(id), position));
    for (const Literal &shard : p.inShards[position])
      p.inPointers[position].push_back(shard.data());
    for (Literal &shard : p.outShards[position])
      p.outPointers[position].push_back(shard.data());
  }
  return p;
}

void launchThreads(const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
  runtime::launch(mesh, function);
}

void launchRanks(const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
  runtime::launchMpi(mesh, function);
}

/// One run as `shardgen run --backend mpi` does it.
void runGlobal(Program &p) {
  for (size_t i = 0; i < p.globalInputs.size(); ++i)
    runtime::scatterBoxesFromRoot(p.globalInputs[i].data(), p.globalInputs[i].type().shape, 4,
                                  p.pieces[i]);
  std::vector<Literal> outputs = p.passes.compiled->run(p.globalInputs, launchRanks);
  for (Literal &output : outputs)
    runtime::mergeDisjointToRoot(output.data(), static_cast<int64_t>(output.byteSize()));
}

struct Config {
  Config(std::string name, bool everyRank, int threads, std::function<void()> run)
      : name(std::move(name)), everyRank(everyRank), threads(threads), run(std::move(run)) {}
  std::string name;
  bool everyRank; // false: rank 0 alone (the others wait)
  int threads;    // devices per rank
  std::function<void()> run;
  std::vector<double> seconds;    // wall time of the slowest rank
  std::vector<double> cpuSeconds; // CPU time per device of the busiest rank
};

/// This process's CPU time (every thread): unlike the wall time, not
/// inflated while another process holds the core, so a loaded machine
/// still shows what a run costs (an MPI rank waiting for a peer spins, so
/// waits count).
double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Every configuration once per round (after one warm-up round); a run's
/// time is the slowest rank's.
void measure(std::vector<Config> &configs, int rounds, int rank) {
  for (int round = -1; round < rounds; ++round) {
    for (Config &config : configs) {
      politeBarrier();
      double start = MPI_Wtime(), cpuStart = processCpuSeconds();
      if (config.everyRank || rank == 0)
        config.run();
      double mine[2] = {MPI_Wtime() - start, (processCpuSeconds() - cpuStart) / config.threads};
      double slowest[2] = {0, 0};
      politeBarrier(); // a rank left out waits here, not in the all-reduce
      MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (round >= 0) {
        config.seconds.push_back(slowest[0]);
        config.cpuSeconds.push_back(slowest[1]);
      }
    }
  }
}

void report(const std::vector<Config> &configs, const Sizes &sizes, int rounds) {
  std::printf("MLP %lldx%lld by %lldx%lld by %lldx%lld, %.2f GFLOP, %d rounds\n",
              static_cast<long long>(sizes.batch), static_cast<long long>(sizes.in),
              static_cast<long long>(sizes.in), static_cast<long long>(sizes.hidden),
              static_cast<long long>(sizes.hidden), static_cast<long long>(sizes.in),
              4.0 * sizes.batch * sizes.in * sizes.hidden / 1e9, rounds);
  auto best = [](const std::vector<double> &values) {
    return *std::min_element(values.begin(), values.end());
  };
  const double oneBest = best(configs[0].seconds), oneMedian = median(configs[0].seconds);
  const double oneCpu = best(configs[0].cpuSeconds);
  std::printf("%-38s %8s %8s %7s %7s %8s %6s\n", "configuration", "best ms", "median", "x best",
              "x med", "CPU ms", "x CPU");
  for (const Config &config : configs) {
    const double fastest = best(config.seconds), middle = median(config.seconds);
    const double cpu = best(config.cpuSeconds);
    std::printf("%-38s %8.2f %8.2f %7.2f %7.2f %8.2f %6.2f\n", config.name.c_str(), fastest * 1e3,
                middle * 1e3, oneBest / fastest, oneMedian / middle, cpu * 1e3, oneCpu / cpu);
  }
  std::printf("CPU ms: CPU time per device on the busiest rank (best round)\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 1 && argc != 4) {
    std::fprintf(stderr, "usage: mpirun -np 2 %s [BATCH IN HIDDEN]\n", argv[0]);
    return 2;
  }
  const char *roundsText = std::getenv("SHARDGEN_BENCH_ROUNDS");
  const int rounds = roundsText ? std::max(1, std::atoi(roundsText)) : 15;
  Sizes sizes;
  if (argc == 4)
    sizes = {std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3])};
  const runtime::MpiWorld world = runtime::initializeMpi();
  const int rank = world.rank;
  auto rankZero = [&](int64_t) { return rank == 0; };
  auto ownPosition = [&](int64_t position) { return position == rank; };
  Program one = makeProgram(1, 1, sizes, 1, rankZero);
  Program dataThreads = makeProgram(2, 1, sizes, 1, rankZero);
  Program modelThreads = makeProgram(1, 2, sizes, 1, rankZero);
  std::vector<Config> configs = {
      {"1 device, 1 rank", false, 1,
       [&] { one.passes.compiled->runShards(one.inPointers, one.outPointers, launchThreads); }},
      {"1 rank x 2 threads, data=2, shards", false, 2,
       [&] {
         dataThreads.passes.compiled->runShards(dataThreads.inPointers, dataThreads.outPointers,
                                                launchThreads);
       }},
      {"1 rank x 2 threads, model=2, shards", false, 2, [&] {
         modelThreads.passes.compiled->runShards(modelThreads.inPointers, modelThreads.outPointers,
                                                 launchThreads);
       }}};
  Program dataRanks, modelRanks;
  if (world.size == 2) {
    dataRanks = makeProgram(2, 1, sizes, 2, ownPosition);
    modelRanks = makeProgram(1, 2, sizes, 2, ownPosition);
    configs.push_back({"2 ranks x 1 thread, data=2, shards", true, 1, [&] {
                         dataRanks.passes.compiled->runShards(dataRanks.inPointers,
                                                              dataRanks.outPointers, launchRanks);
                       }});
    configs.push_back({"2 ranks x 1 thread, model=2, shards", true, 1, [&] {
                         modelRanks.passes.compiled->runShards(modelRanks.inPointers,
                                                               modelRanks.outPointers, launchRanks);
                       }});
    configs.push_back({"2 ranks, data=2, global I/O", true, 1, [&] { runGlobal(dataRanks); }});
    configs.push_back({"2 ranks, model=2, global I/O", true, 1, [&] { runGlobal(modelRanks); }});
  }
  if (const char *only = std::getenv("SHARDGEN_BENCH_ONLY")) // profiling one configuration
    std::erase_if(configs, [&](const Config &config) { return config.name.rfind(only, 0) != 0; });
  measure(configs, rounds, rank);
  if (rank == 0)
    report(configs, sizes, rounds);
  runtime::finalizeMpi();
  return 0;
}
