// Generated sort and top_k kernels against their baselines, measured in the
// same run: jnp.sort of 1M f32 (a comparator LT TOTALORDER) against
// std::sort of the same values, and lax.top_k with k = 50 of 64 rows of
// 32768 f32 against a std::partial_sort per row (torch.topk: bench/topk_torch.py
// prints its time for the same shape). Each program goes through the real
// code generator and JIT on a one-device mesh; only the generated steps are
// timed.
//
//   bench_codegen_sort [repetitions]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "bench/codegen_bench_util.h"

using namespace shardgen;

namespace {

constexpr int64_t kSortElements = 1 << 20;
constexpr int64_t kRows = 64, kRow = 32768, kK = 50;

std::string sortGraph() {
  const std::string type = "tensor<" + std::to_string(kSortElements) + "xf32>";
  return R"({"format": "shardgen-graph", "version": 1, "name": "sort",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 1}]}],
    "inputs": [{"name": "a", "type": ")" +
         type + R"("}],
    "ops": [{"op": "sort", "operands": ["a"], "result": "y", "dimension": 0, "is_stable": true,
      "comparator": {"args": [{"name": "l", "type": "tensor<f32>"}, {"name": "r", "type": "tensor<f32>"}],
        "ops": [{"op": "compare", "operands": ["l", "r"], "result": "lt",
                 "comparison_direction": "LT", "compare_type": "TOTALORDER"}],
        "return": ["lt"]}}],
    "outputs": [{"value": "y"}]})";
}

std::string topKGraph() {
  return R"({"format": "shardgen-graph", "version": 1, "name": "top_k",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 1}]}],
    "inputs": [{"name": "a", "type": "tensor<)" +
         std::to_string(kRows) + "x" + std::to_string(kRow) + R"(xf32>"}],
    "ops": [{"op": "top_k", "operands": ["a"], "results": ["v", "i"], "k": )" +
         std::to_string(kK) + R"(}],
    "outputs": [{"value": "v"}, {"value": "i"}]})";
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;

  const std::vector<float> values = bench::randomFloats(kSortElements);
  std::vector<float> scratch(kSortElements), sorted(kSortElements);
  bench::BenchProgram sortProgram(sortGraph());
  const double sortSeconds = bench::bestSeconds(repetitions, [&] {
    sortProgram.runSteps({const_cast<float *>(values.data())}, {sorted.data()});
  });
  const double stdSeconds = bench::bestSeconds(repetitions, [&] {
    scratch = values;
    std::sort(scratch.begin(), scratch.end());
  });
  const bool same = std::equal(sorted.begin(), sorted.end(), scratch.begin());
  std::printf("%-34s %10.2f ms\n", "sort 1M f32 (generated)", sortSeconds * 1e3);
  std::printf("%-34s %10.2f ms  ratio %.2f%s\n", "std::sort (copy + sort)", stdSeconds * 1e3,
              sortSeconds / stdSeconds, same ? "" : "  RESULTS DIFFER");

  const std::vector<float> rows = bench::randomFloats(kRows * kRow);
  std::vector<float> topValues(kRows * kK);
  std::vector<int32_t> topIndices(kRows * kK);
  bench::BenchProgram topKProgram(topKGraph());
  const double topKSeconds = bench::bestSeconds(repetitions, [&] {
    topKProgram.runSteps({const_cast<float *>(rows.data())}, {topValues.data(), topIndices.data()});
  });
  std::vector<int32_t> order(kRow);
  const double partialSeconds = bench::bestSeconds(repetitions, [&] {
    for (int64_t r = 0; r < kRows; ++r) {
      const float *row = rows.data() + r * kRow;
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + kK, order.end(),
                        [&](int32_t a, int32_t b) { return row[a] > row[b]; });
    }
  });
  std::printf("%-34s %10.3f ms\n", "top_k k=50 of 64x32768 (generated)", topKSeconds * 1e3);
  std::printf("%-34s %10.3f ms  ratio %.2f\n", "std::partial_sort per row", partialSeconds * 1e3,
              topKSeconds / partialSeconds);
  return 0;
}
