// Generated elementwise kernels and reductions on 16M elements against
// memcpy bandwidth, measured in the same run. Each program is a graph on a
// one-device mesh put through the real code generator (so chains are fused)
// and JIT; only the generated steps are timed, on buffers touched
// beforehand.
//
// Bandwidth counts the bytes a kernel must move: every input read once and
// the output written once (f32 a + b: 3 x 64 MiB; a * x + b: 4 x 64 MiB;
// bf16 and f16 half of that; a reduction its input and its output). memcpy
// of 64 MiB moves 2 x 64 MiB. Ratio = kernel bytes/s / memcpy bytes/s
// (target >= 0.9): the f32 transcendental chains (exp, tanh, logistic, log
// of a * x + b) too, which must not be bound by their arithmetic.
//
//   bench_codegen_elementwise [repetitions]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/codegen_bench_util.h"
#include "compiler/ir/Float16.h"

using namespace shardgen;

namespace {

constexpr int64_t kRows = 4096, kCols = 4096; // 16M elements, 64 MiB per f32 tensor
constexpr double kTensorBytes = double(kRows) * kCols * 4;

std::string elementwiseGraph(const std::vector<std::string> &inputs, const std::string &ops,
                             const std::string &result, const std::string &element = "f32") {
  const std::string type =
      "\"tensor<" + std::to_string(kRows) + "x" + std::to_string(kCols) + "x" + element + ">\"";
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
  std::string label;
  std::vector<std::string> inputs;
  std::string ops;
  std::string result;
  std::string element = "f32";
  double outputFraction = 1; // of an input's bytes (a reduction: 1/4096)
};

int64_t elementBytes(const std::string &element) { return element == "f32" ? 4 : 2; }

/// The fused chain y = op(a * x + b).
Case fusedUnary(const std::string &op) {
  return {"fused " + op + "(a * x + b)",
          {"a", "x", "b"},
          R"({"op": "multiply", "operands": ["a", "x"], "result": "ax"},
             {"op": "add", "operands": ["ax", "b"], "result": "axb"},
             {"op": ")" +
              op + R"(", "operands": ["axb"], "result": "y"})",
          "y"};
}

/// reduce-add of a over `dim` (1: rows, 0: columns) into tensor<4096xT>.
Case reduction(const std::string &element, int dim) {
  return {element + (dim == 1 ? " row sums" : " column sums"),
          {"a"},
          R"({"op": "constant", "result": "zero", "type": "tensor<)" + element +
              R"(>", "value": 0.0},
             {"op": "reduce", "operands": ["a", "zero"], "result": "y", "dimensions": [)" +
              std::to_string(dim) + R"(], "reducer": "add", "type": "tensor<4096x)" + element +
              R"(>"})",
          "y",
          element,
          1.0 / kRows};
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const int64_t elements = kRows * kCols;
  std::vector<std::vector<float>> buffers(4, std::vector<float>(elements));
  for (size_t b = 0; b < buffers.size(); ++b)
    for (int64_t i = 0; i < elements; ++i)
      buffers[b][i] = static_cast<float>((i + 7 * b) % 1000) * 1e-3f + 0.25f; // log's domain too

  std::vector<std::vector<uint16_t>> halves(4, std::vector<uint16_t>(elements));
  double memcpySeconds = bench::bestSeconds(repetitions, [&] {
    std::memcpy(buffers[3].data(), buffers[0].data(), elements * sizeof(float));
  });
  const double memcpyBandwidth = 2 * kTensorBytes / memcpySeconds;
  std::printf("16M floats (64 MiB per tensor), best of %d runs\n", repetitions);
  std::printf("%-22s %10.2f ms %8.2f GB/s\n", "memcpy 64 MiB", memcpySeconds * 1e3,
              memcpyBandwidth * 1e-9);

  std::vector<Case> cases = {
      {"add a + b", {"a", "b"}, R"({"op": "add", "operands": ["a", "b"], "result": "y"})", "y"},
      {"fused a * x + b",
       {"a", "x", "b"},
       R"({"op": "multiply", "operands": ["a", "x"], "result": "ax"},
          {"op": "add", "operands": ["ax", "b"], "result": "y"})",
       "y"},
  };
  for (const char *op : {"tanh", "exponential", "logistic", "log"})
    cases.push_back(fusedUnary(op));
  for (const char *element : {"bf16", "f16"}) {
    for (Case c : {cases[0], cases[1], fusedUnary("tanh")}) {
      c.label = std::string(element) + " " + c.label;
      c.element = element;
      cases.push_back(c);
    }
  }
  for (const char *element : {"f32", "bf16", "f16"})
    for (int dim : {1, 0})
      cases.push_back(reduction(element, dim));
  std::printf("%-30s %13s %13s %8s\n", "kernel", "time", "bandwidth", "ratio");
  for (const Case &c : cases) {
    bench::BenchProgram program(elementwiseGraph(c.inputs, c.ops, c.result, c.element));
    std::vector<void *> inputs;
    void *output = buffers[3].data();
    if (c.element == "f32") {
      for (size_t i = 0; i < c.inputs.size(); ++i)
        inputs.push_back(buffers[i].data());
    } else { // the same values, rounded to the element type
      for (size_t i = 0; i < halves.size(); ++i)
        for (int64_t j = 0; j < elements; ++j)
          halves[i][j] =
              c.element == "bf16" ? floatToBfloat16(buffers[i][j]) : floatToHalf(buffers[i][j]);
      for (size_t i = 0; i < c.inputs.size(); ++i)
        inputs.push_back(halves[i].data());
      output = halves[3].data();
    }
    double seconds = bench::bestSeconds(repetitions, [&] { program.runSteps(inputs, {output}); });
    const double tensorBytes = kTensorBytes / 4 * elementBytes(c.element);
    const double bytes = (c.inputs.size() + c.outputFraction) * tensorBytes;
    std::printf("%-30s %10.2f ms %8.2f GB/s %7.2fx\n", c.label.c_str(), seconds * 1e3,
                bytes / seconds * 1e-9, bytes / seconds / memcpyBandwidth);
  }
  std::printf("ratio = kernel bytes/s / memcpy bytes/s (target >= 0.9x)\n");
  return 0;
}
