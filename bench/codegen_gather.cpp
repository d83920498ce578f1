// Generated gather and scatter kernels against memcpy bandwidth, measured
// in the same run: an embedding lookup (4096 rows of 1024 f32 from a table
// of 32768 rows) and its gradient, a scatter-add of 4096 rows of updates
// into the table. Each program is a graph on a one-device mesh put through
// the real code generator and JIT; only the generated steps are timed, on
// buffers touched beforehand.
//
// Bandwidth counts the bytes a kernel must move: the gather reads each row
// it gathers and writes it (2 x 16 MiB, the indices aside); the scatter-add
// writes its result (a copy of the 128 MiB table: read and written) and
// reads, combines and writes each updated row (3 x 16 MiB). memcpy of
// 16 MiB moves 2 x 16 MiB. Ratio = kernel bytes/s / memcpy bytes/s
// (targets: gather >= 0.8, scatter-add >= 0.5).
//
// Each is timed twice: warm (best of repeated calls: memcpy's 32 MiB and
// the gathered rows may stay in the last-level cache) and cold (a 256 MiB
// buffer read before every call, untimed: everything comes from memory).
//
//   bench_codegen_gather [repetitions]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/codegen_bench_util.h"

using namespace shardgen;

namespace {

constexpr int64_t kTableRows = 32768, kWidth = 1024, kLookups = 4096;
constexpr double kRowsBytes = double(kLookups) * kWidth * 4; // 16 MiB
constexpr double kTableBytes = double(kTableRows) * kWidth * 4;

std::string graph(const std::string &op, const std::string &extraInput) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "gather",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 1}]}],
    "inputs": [{"name": "table", "type": "tensor<32768x1024xf32>"},
               {"name": "ids", "type": "tensor<4096x1xi32>"})" +
         extraInput + R"(], "ops": [)" + op + R"(], "outputs": [{"value": "y"}]})";
}

/// Seconds of the best warm call and of the best call after the caches
/// were evicted (a 256 MiB read, untimed).
struct Timing {
  double warm, cold;
};

class Timer {
public:
  explicit Timer(int repetitions) : repetitions_(repetitions), evictor_(int64_t(256) << 17) {}

  template <typename Fn> Timing time(const Fn &fn) {
    return {bench::bestSeconds(repetitions_, fn),
            bench::bestSeconds(repetitions_, [this] { evict(); }, fn)};
  }

private:
  void evict() {
    int64_t sum = 0;
    for (int64_t i = 0; i < static_cast<int64_t>(evictor_.size()); i += 8)
      sum += evictor_[i]++;
    sink_ = sum;
  }

  int repetitions_;
  std::vector<int64_t> evictor_;
  volatile int64_t sink_ = 0;
};

void printRow(const char *name, Timing seconds, double bytes) {
  std::printf("%-22s %8.2f ms %6.2f GB/s   %8.2f ms %6.2f GB/s\n", name, seconds.warm * 1e3,
              bytes / seconds.warm * 1e-9, seconds.cold * 1e3, bytes / seconds.cold * 1e-9);
}

/// (kernel bytes / kernel time) / (memcpy bytes / memcpy time), warm and cold.
Timing ratio(double bytes, Timing kernel, Timing memcpy) {
  return {bytes / kernel.warm / (2 * kRowsBytes / memcpy.warm),
          bytes / kernel.cold / (2 * kRowsBytes / memcpy.cold)};
}

const char *const kGather = R"({"op": "gather", "operands": ["table", "ids"], "result": "y",
      "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                            "start_index_map": [0], "index_vector_dim": 1},
      "slice_sizes": [1, 1024]})";

const char *const kScatterAdd =
    R"({"op": "scatter", "operands": ["table", "ids", "u"], "result": "y",
      "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                    "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
      "update_computation": {"args": [{"name": "a", "type": "tensor<f32>"},
                                      {"name": "b", "type": "tensor<f32>"}],
                             "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}],
                             "return": ["s"]}})";

/// Scattered rows of the table, a few repeated.
std::vector<int32_t> lookupIds() {
  std::vector<int32_t> ids(kLookups);
  uint64_t state = 12345;
  for (int32_t &id : ids) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    id = static_cast<int32_t>((state >> 33) % kTableRows);
  }
  return ids;
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::vector<float> table(kTableRows * kWidth), rows(kLookups * kWidth),
      result(kTableRows * kWidth);
  for (int64_t i = 0; i < static_cast<int64_t>(table.size()); ++i)
    table[i] = static_cast<float>(i % 1000) * 1e-3f;
  for (int64_t i = 0; i < static_cast<int64_t>(rows.size()); ++i)
    rows[i] = static_cast<float>(i % 777) * 1e-3f;
  std::vector<int32_t> ids = lookupIds(); // bound as an input (non-const)
  Timer timer(repetitions);

  std::printf("embedding: %lld rows of %lld f32 from %lld, best of %d runs\n",
              static_cast<long long>(kLookups), static_cast<long long>(kWidth),
              static_cast<long long>(kTableRows), repetitions);
  std::printf("%-22s %22s   %22s\n", "", "warm", "cold");
  const Timing memcpySeconds =
      timer.time([&] { std::memcpy(result.data(), rows.data(), rows.size() * sizeof(float)); });
  printRow("memcpy 16 MiB", memcpySeconds, 2 * kRowsBytes);
  // The same rows copied by a plain loop of memcpy: what reading random
  // rows of a table costs.
  const Timing loopSeconds = timer.time([&] {
    for (int64_t r = 0; r < kLookups; ++r)
      std::memcpy(rows.data() + r * kWidth, table.data() + int64_t(ids[r]) * kWidth,
                  kWidth * sizeof(float));
  });
  printRow("memcpy loop of rows", loopSeconds, 2 * kRowsBytes);

  bench::BenchProgram gather(graph(kGather, ""));
  const Timing gatherSeconds =
      timer.time([&] { gather.runSteps({table.data(), ids.data()}, {rows.data()}); });
  const double gatherBytes = 2 * kRowsBytes;
  printRow("gather rows", gatherSeconds, gatherBytes);

  bench::BenchProgram scatter(
      graph(kScatterAdd, R"(, {"name": "u", "type": "tensor<4096x1024xf32>"})"));
  const Timing scatterSeconds = timer.time(
      [&] { scatter.runSteps({table.data(), ids.data(), rows.data()}, {result.data()}); });
  const double scatterBytes = 2 * kTableBytes + 3 * kRowsBytes;
  printRow("scatter-add rows", scatterSeconds, scatterBytes);

  const Timing gatherRatio = ratio(gatherBytes, gatherSeconds, memcpySeconds);
  const Timing scatterRatio = ratio(scatterBytes, scatterSeconds, memcpySeconds);
  std::printf("ratio = kernel bytes/s / memcpy bytes/s, warm and cold\n");
  std::printf("gather rows       %5.2fx %5.2fx (target >= 0.8x; %.2fx / %.2fx the memcpy loop)\n",
              gatherRatio.warm, gatherRatio.cold, loopSeconds.warm / gatherSeconds.warm,
              loopSeconds.cold / gatherSeconds.cold);
  std::printf("scatter-add rows  %5.2fx %5.2fx (target >= 0.5x)\n", scatterRatio.warm,
              scatterRatio.cold);
  return 0;
}
