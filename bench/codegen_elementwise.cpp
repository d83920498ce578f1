// Generated elementwise kernels on 16M floats against memcpy bandwidth,
// measured in the same run. Each program is a graph on a one-device mesh
// put through the real code generator (so chains are fused) and JIT;
// only the generated steps are timed, on buffers touched beforehand.
//
// Bandwidth counts the bytes a kernel must move: every input read once and
// the output written once (a + b: 3 x 64 MiB; a * x + b: 4 x 64 MiB).
// memcpy of 64 MiB moves 2 x 64 MiB. Ratio = kernel bytes/s / memcpy
// bytes/s (target >= 0.8). tanh(a * x + b) is printed too: libm's scalar
// tanhf makes it compute-bound, not a bandwidth test.
//
//   bench_codegen_elementwise [repetitions]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/codegen_bench_util.h"

using namespace shardgen;

namespace {

constexpr int64_t kRows = 4096, kCols = 4096; // 16M floats, 64 MiB per tensor
constexpr double kTensorBytes = double(kRows) * kCols * 4;

std::string elementwiseGraph(const std::vector<std::string> &inputs, const std::string &ops,
                             const std::string &result) {
  const std::string type =
      "\"tensor<" + std::to_string(kRows) + "x" + std::to_string(kCols) + "xf32>\"";
  std::string inputList;
  for (const std::string &name : inputs)
    inputList += (inputList.empty() ? "" : ", ") + std::string("{\"name\": \"") + name +
                 "\", \"type\": " + type + "}";
  return R"({"format": "shardgen-graph", "version": 1, "name": "elementwise",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 1}]}],
    "inputs": [)" +
         inputList + R"(], "ops": [)" + ops + R"(], "outputs": [{"value": ")" + result + R"("}]})";
}

struct Case {
  const char *label;
  std::vector<std::string> inputs;
  std::string ops;
  std::string result;
};

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const int64_t elements = kRows * kCols;
  std::vector<std::vector<float>> buffers(4, std::vector<float>(elements));
  for (size_t b = 0; b < buffers.size(); ++b)
    for (int64_t i = 0; i < elements; ++i)
      buffers[b][i] = static_cast<float>((i + 7 * b) % 1000) * 1e-3f - 0.5f;

  double memcpySeconds = bench::bestSeconds(repetitions, [&] {
    std::memcpy(buffers[3].data(), buffers[0].data(), elements * sizeof(float));
  });
  const double memcpyBandwidth = 2 * kTensorBytes / memcpySeconds;
  std::printf("16M floats (64 MiB per tensor), best of %d runs\n", repetitions);
  std::printf("%-22s %10.2f ms %8.2f GB/s\n", "memcpy 64 MiB", memcpySeconds * 1e3,
              memcpyBandwidth * 1e-9);

  const Case cases[] = {
      {"add a + b", {"a", "b"}, R"({"op": "add", "operands": ["a", "b"], "result": "y"})", "y"},
      {"fused a * x + b",
       {"a", "x", "b"},
       R"({"op": "multiply", "operands": ["a", "x"], "result": "ax"},
          {"op": "add", "operands": ["ax", "b"], "result": "y"})",
       "y"},
      {"fused tanh(a * x + b)",
       {"a", "x", "b"},
       R"({"op": "multiply", "operands": ["a", "x"], "result": "ax"},
          {"op": "add", "operands": ["ax", "b"], "result": "axb"},
          {"op": "tanh", "operands": ["axb"], "result": "y"})",
       "y"},
  };
  std::printf("%-22s %13s %13s %8s\n", "kernel", "time", "bandwidth", "ratio");
  for (const Case &c : cases) {
    bench::BenchProgram program(elementwiseGraph(c.inputs, c.ops, c.result));
    std::vector<void *> inputs;
    for (size_t i = 0; i < c.inputs.size(); ++i)
      inputs.push_back(buffers[i].data());
    double seconds =
        bench::bestSeconds(repetitions, [&] { program.runSteps(inputs, {buffers[3].data()}); });
    const double bytes = (c.inputs.size() + 1) * kTensorBytes;
    std::printf("%-22s %10.2f ms %8.2f GB/s %7.2fx\n", c.label, seconds * 1e3,
                bytes / seconds * 1e-9, bytes / seconds / memcpyBandwidth);
  }
  std::printf("ratio = kernel bytes/s / memcpy bytes/s (target >= 0.8x)\n");
  return 0;
}
