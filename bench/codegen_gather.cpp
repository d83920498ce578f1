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

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::vector<float> table(kTableRows * kWidth), rows(kLookups * kWidth),
      result(kTableRows * kWidth);
  for (int64_t i = 0; i < static_cast<int64_t>(table.size()); ++i)
    table[i] = static_cast<float>(i % 1000) * 1e-3f;
  for (int64_t i = 0; i < static_cast<int64_t>(rows.size()); ++i)
    rows[i] = static_cast<float>(i % 777) * 1e-3f;
  std::vector<int32_t> ids(kLookups);
  uint64_t state = 12345;
  for (int32_t &id : ids) { // scattered rows, a few repeated
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    id = static_cast<int32_t>((state >> 33) % kTableRows);
  }

  const double memcpySeconds = bench::bestSeconds(
      repetitions, [&] { std::memcpy(result.data(), rows.data(), rows.size() * sizeof(float)); });
  const double memcpyBandwidth = 2 * kRowsBytes / memcpySeconds;
  std::printf("embedding: %lld rows of %lld f32 from %lld, best of %d runs\n",
              static_cast<long long>(kLookups), static_cast<long long>(kWidth),
              static_cast<long long>(kTableRows), repetitions);
  std::printf("%-22s %10.2f ms %8.2f GB/s\n", "memcpy 16 MiB", memcpySeconds * 1e3,
              memcpyBandwidth * 1e-9);

  // The same rows copied by a plain loop of memcpy: what reading random
  // rows of a table in memory costs (memcpy of 16 MiB may run in cache).
  const double loopSeconds = bench::bestSeconds(repetitions, [&] {
    for (int64_t r = 0; r < kLookups; ++r)
      std::memcpy(rows.data() + r * kWidth, table.data() + int64_t(ids[r]) * kWidth,
                  kWidth * sizeof(float));
  });
  std::printf("%-22s %10.2f ms %8.2f GB/s\n", "memcpy loop of rows", loopSeconds * 1e3,
              2 * kRowsBytes / loopSeconds * 1e-9);

  bench::BenchProgram gather(graph(R"({"op": "gather", "operands": ["table", "ids"], "result": "y",
      "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                            "start_index_map": [0], "index_vector_dim": 1},
      "slice_sizes": [1, 1024]})",
                                   ""));
  const double gatherSeconds = bench::bestSeconds(
      repetitions, [&] { gather.runSteps({table.data(), ids.data()}, {rows.data()}); });
  const double gatherBytes = 2 * kRowsBytes;

  bench::BenchProgram scatter(
      graph(R"({"op": "scatter", "operands": ["table", "ids", "u"], "result": "y",
      "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                    "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
      "update_computation": {"args": [{"name": "a", "type": "tensor<f32>"},
                                      {"name": "b", "type": "tensor<f32>"}],
                             "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}],
                             "return": ["s"]}})",
            R"(, {"name": "u", "type": "tensor<4096x1024xf32>"})"));
  const double scatterSeconds = bench::bestSeconds(repetitions, [&] {
    scatter.runSteps({table.data(), ids.data(), rows.data()}, {result.data()});
  });
  const double scatterBytes = 2 * kTableBytes + 3 * kRowsBytes;

  std::printf("%-22s %13s %13s %8s\n", "kernel", "time", "bandwidth", "ratio");
  std::printf("%-22s %10.2f ms %8.2f GB/s %7.2fx (target >= 0.8x; %.2fx the memcpy loop)\n",
              "gather rows", gatherSeconds * 1e3, gatherBytes / gatherSeconds * 1e-9,
              gatherBytes / gatherSeconds / memcpyBandwidth, loopSeconds / gatherSeconds);
  std::printf("%-22s %10.2f ms %8.2f GB/s %7.2fx (target >= 0.5x)\n", "scatter-add rows",
              scatterSeconds * 1e3, scatterBytes / scatterSeconds * 1e-9,
              scatterBytes / scatterSeconds / memcpyBandwidth);
  std::printf("ratio = kernel bytes/s / memcpy bytes/s\n");
  return 0;
}
