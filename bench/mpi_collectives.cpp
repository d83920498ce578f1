// The MPI backend's collectives against the raw MPI call on the same buffers
// in the same run: all_reduce vs MPI_Allreduce, all_gather vs MPI_Allgather,
// all_to_all vs MPI_Alltoall, reduce_scatter vs MPI_Reduce_scatter_block,
// collective_permute (shift 1) vs MPI_Sendrecv around the ring. One device
// per rank on a 1-D mesh; f32, 64 KiB to 16 MiB per rank. Run as
//   mpirun -np 2 [--allow-run-as-root] bench_mpi_collectives
// Ratio = shardgen time / MPI time (1.0: no overhead); the slowest rank's
// time of each call counts, best of 9 rounds (interleaved; or of
// $SHARDGEN_BENCH_ROUNDS rounds).

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

#include "shardgen/mpi.h"
#include "shardgen/runtime.h"

using namespace shardgen::runtime;

namespace {

// Seconds per call of `call` (the slowest rank's) over one round.
double roundTime(int iterations, const std::function<void()> &call) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int i = 0; i < iterations; ++i)
    call();
  double mine = (MPI_Wtime() - start) / iterations, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

// Best round of each, the rounds of the two interleaved (a shared machine's
// load then weighs on both alike).
std::pair<double, double> bestOfInterleaved(int rounds, int iterations,
                                            const std::function<void()> &ours,
                                            const std::function<void()> &theirs) {
  ours(); // warm up: page faults, communicator splits
  theirs();
  double bestOurs = 1e30, bestTheirs = 1e30;
  for (int round = 0; round < rounds; ++round) {
    bestOurs = std::min(bestOurs, roundTime(iterations, ours));
    bestTheirs = std::min(bestTheirs, roundTime(iterations, theirs));
  }
  return {bestOurs, bestTheirs};
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *roundsText = std::getenv("SHARDGEN_BENCH_ROUNDS");
  const int rounds = roundsText ? std::max(1, std::atoi(roundsText)) : 9;
  DeviceMesh mesh({{"x", size}});
  const int32_t axis = 0;
  const AxisList axes{&axis, 1};
  if (rank == 0)
    std::printf("%d ranks, f32; ms per call (shardgen / raw MPI = ratio)\n"
                "| bytes per rank | all_reduce | all_gather | all_to_all | reduce_scatter | "
                "collective_permute |\n|---|---|---|---|---|---|\n",
                size);
  launchMpi(mesh, [&](const DeviceContext &device) {
    for (int64_t bytes : {int64_t{64} << 10, int64_t{1} << 20, int64_t{16} << 20}) {
      const int64_t count = bytes / 4; // floats per rank, divisible by the ranks
      std::vector<float> in(count), out(count * size), big(count * size);
      for (int64_t i = 0; i < count; ++i)
        in[i] = static_cast<float>((i * 7 + rank) % 13) * 0.25f;
      for (int64_t i = 0; i < count * size; ++i)
        big[i] = static_cast<float>((i * 3 + rank) % 11) * 0.5f;
      const int iterations = bytes <= (1 << 20) ? 50 : 5;
      const int n = static_cast<int>(count);
      struct Pair {
        std::function<void()> shardgen, mpi;
      };
      int64_t shape[1] = {count};
      const Pair pairs[] = {
          {[&] {
             allReduce(device, axes, SHARDGEN_F32, Reducer::Add, in.data(), out.data(), count);
           },
           [&] { MPI_Allreduce(in.data(), out.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); }},
          {[&] {
             allGather(device, axes, SHARDGEN_F32, DimView{1, count, 1}, in.data(), out.data());
           },
           [&] {
             MPI_Allgather(in.data(), n, MPI_FLOAT, out.data(), n, MPI_FLOAT, MPI_COMM_WORLD);
           }},
          {[&] { allToAll(device, axes, SHARDGEN_F32, shape, 1, 0, 0, in.data(), out.data()); },
           [&] {
             MPI_Alltoall(in.data(), n / size, MPI_FLOAT, out.data(), n / size, MPI_FLOAT,
                          MPI_COMM_WORLD);
           }},
          {[&] {
             reduceScatter(device, axes, SHARDGEN_F32, Reducer::Add, DimView{1, count, 1},
                           in.data(), out.data());
           },
           [&] {
             MPI_Reduce_scatter_block(in.data(), out.data(), n / size, MPI_FLOAT, MPI_SUM,
                                      MPI_COMM_WORLD);
           }},
          {[&] { collectivePermute(device, axes, SHARDGEN_F32, 1, in.data(), out.data(), count); },
           [&] {
             MPI_Sendrecv(in.data(), n, MPI_FLOAT, (rank + 1) % size, 0, out.data(), n, MPI_FLOAT,
                          (rank - 1 + size) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
           }},
      };
      if (rank == 0)
        std::printf("| %lld KiB |", static_cast<long long>(bytes >> 10));
      for (const Pair &pair : pairs) {
        auto [ours, theirs] = bestOfInterleaved(rounds, iterations, pair.shardgen, pair.mpi);
        if (rank == 0)
          std::printf(" %.3f / %.3f = **%.2f** |", ours * 1e3, theirs * 1e3, ours / theirs);
      }
      if (rank == 0)
        std::printf("\n");
    }
  });
  MPI_Finalize();
  return 0;
}
