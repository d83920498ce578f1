// Threads-backend all_reduce, all_gather and collective_permute throughput at
// 2, 4 and 8 devices, 1K..16M floats (or up to the argument), best of
// SHARDGEN_BENCH_ROUNDS rounds, against the memory-traffic bound measured in
// the same run:
// the aggregate memcpy bandwidth of this machine times the bytes each
// algorithm must read and write at minimum.
//
// Minimal traffic per device (N = buffer bytes per device, n devices):
//   all_reduce (reduce-scatter + all-gather): read N and write N/n to reduce
//     its chunk, then read and write (n-1)/n N to collect the others:
//     3N - N/n. (The threads backend fuses the two phases: it reads N and
//     writes N, the large sizes with streaming stores, so it can beat this
//     bound; the bound stays the textbook one so figures remain comparable.)
//   all_gather of S = N/n bytes per device into N: read and write N: 2N.
//   collective_permute (shift 1) of N bytes per device: read and write N: 2N.
// The bound is n * traffic / (memcpy traffic per second, all cores busy).
// Ratio = measured / bound: 1.0 is the memory bound; small sizes are
// latency (barrier) bound and show large ratios; mid sizes fit in the caches
// and can beat the DRAM bound (ratio < 1).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "shardgen/launch.h"

using namespace shardgen::runtime;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Read+write bytes per second of memcpy with every core copying its own
// buffers (larger than the caches).
double memcpyTrafficPerSecond() {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const size_t bytes = size_t{64} << 20;
  std::vector<std::vector<char>> from(threads, std::vector<char>(bytes, 1));
  std::vector<std::vector<char>> to(threads, std::vector<char>(bytes, 0));
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    auto start = Clock::now();
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&, t] { std::memcpy(to[t].data(), from[t].data(), bytes); });
    for (auto &worker : workers)
      worker.join();
    best = std::max(best, 2.0 * bytes * threads / secondsSince(start));
  }
  return best;
}

// Best of this many rounds (SHARDGEN_BENCH_ROUNDS): on a shared machine a
// round can lose the cores to other processes, which says nothing about
// the collective.
int rounds() {
  const char *text = std::getenv("SHARDGEN_BENCH_ROUNDS");
  return text ? std::max(1, std::atoi(text)) : 5;
}

// Runs `op` on every device `iterations` times per round; returns the
// seconds per call of the best round.
template <typename Op> double timePerCall(const DeviceMesh &mesh, int iterations, Op op) {
  double best = 0;
  launch(mesh, [&](const DeviceContext &device) {
    op(device); // warm up: page faults, group creation
    for (int round = 0, total = rounds(); round < total; ++round) {
      barrier(device);
      auto start = Clock::now();
      for (int i = 0; i < iterations; ++i)
        op(device);
      barrier(device);
      double seconds = secondsSince(start) / iterations;
      if (device.position == 0 && (round == 0 || seconds < best))
        best = seconds;
    }
  });
  return best;
}

int iterationsFor(int64_t bytesPerDevice) {
  // ~1 GB of traffic per measurement, at least 3 and at most 2000 calls.
  return static_cast<int>(std::clamp<int64_t>((int64_t{1} << 30) / (bytesPerDevice * 8), 3, 2000));
}

} // namespace

int main(int argc, char **argv) {
  // Largest size measured (default 16M floats per device).
  const int64_t maxFloats = argc > 1 ? std::atoll(argv[1]) : int64_t{16} << 20;
  const double traffic = memcpyTrafficPerSecond();
  std::printf("memcpy traffic (read+write, %u threads): %.2f GB/s\n",
              std::thread::hardware_concurrency(), traffic / 1e9);
  std::printf("%-10s %7s %10s %12s %12s %8s\n", "op", "devices", "floats", "time_us", "bound_us",
              "ratio");
  const int32_t axis[] = {0};
  for (int64_t devices : {2, 4, 8}) {
    DeviceMesh mesh({{"x", devices}});
    for (int64_t floats = 1024; floats <= maxFloats; floats *= 4) {
      const double n = static_cast<double>(devices);
      const double bytes = static_cast<double>(floats) * sizeof(float);
      const int iterations = iterationsFor(floats * 4);
      {
        std::vector<std::vector<float>> in(devices, std::vector<float>(floats, 1.0f));
        std::vector<std::vector<float>> out(devices, std::vector<float>(floats));
        double seconds = timePerCall(mesh, iterations, [&](const DeviceContext &device) {
          allReduce(device, {axis, 1}, SHARDGEN_F32, Reducer::Add, in[device.position].data(),
                    out[device.position].data(), floats);
        });
        double bound = n * (3 * bytes - bytes / n) / traffic;
        std::printf("%-10s %7lld %10lld %12.1f %12.1f %8.2f\n", "all_reduce", (long long)devices,
                    (long long)floats, seconds * 1e6, bound * 1e6, seconds / bound);
      }
      {
        const int64_t local = floats / devices; // the gathered buffer has `floats`
        std::vector<std::vector<float>> in(devices, std::vector<float>(local, 1.0f));
        std::vector<std::vector<float>> out(devices, std::vector<float>(local * devices));
        double seconds = timePerCall(mesh, iterations, [&](const DeviceContext &device) {
          allGather(device, {axis, 1}, SHARDGEN_F32, DimView{1, local, 1},
                    in[device.position].data(), out[device.position].data());
        });
        double bound = n * 2 * bytes / traffic;
        std::printf("%-10s %7lld %10lld %12.1f %12.1f %8.2f\n", "all_gather", (long long)devices,
                    (long long)floats, seconds * 1e6, bound * 1e6, seconds / bound);
      }
      {
        std::vector<std::vector<float>> in(devices, std::vector<float>(floats, 1.0f));
        std::vector<std::vector<float>> out(devices, std::vector<float>(floats));
        double seconds = timePerCall(mesh, iterations, [&](const DeviceContext &device) {
          collectivePermute(device, {axis, 1}, SHARDGEN_F32, 1, in[device.position].data(),
                            out[device.position].data(), floats);
        });
        double bound = n * 2 * bytes / traffic;
        std::printf("%-10s %7lld %10lld %12.1f %12.1f %8.2f\n", "permute", (long long)devices,
                    (long long)floats, seconds * 1e6, bound * 1e6, seconds / bound);
      }
      std::fflush(stdout);
    }
  }
  return 0;
}
