// The generated dot_general kernel against OpenBLAS's cblas_sgemm, both
// single-threaded, on the same f32 matrices in the same run.
//
// Each matmul is a one-op graph (C[M,N] = A[M,K] x B[K,N] on a one-device
// mesh) put through the real code generator and JIT; only the generated
// steps are timed. Prints GFLOP/s of both and the ratio generated/OpenBLAS
// (target >= 0.8), and the largest relative difference between the two
// results. Then bf16 and f16 (the same matrices rounded) against the
// generated f32 dot of the same run: FLOP rate ratios (targets: bf16 >= 1.8x
// where vdpbf16ps runs, f16 >= 0.95x).
//
//   bench_codegen_dot [repetitions]
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/codegen_bench_util.h"
#include "compiler/ir/Float16.h"
#include "compiler/jit/JitCompiler.h"

using namespace shardgen;

namespace {

std::string matmulGraph(int64_t m, int64_t n, int64_t k, const std::string &element = "f32") {
  auto type = [&](int64_t rows, int64_t cols) {
    return "\"tensor<" + std::to_string(rows) + "x" + std::to_string(cols) + "x" + element + ">\"";
  };
  return R"({"format": "shardgen-graph", "version": 1, "name": "dot",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 1}]}],
    "inputs": [{"name": "a", "type": )" +
         type(m, k) + R"(}, {"name": "b", "type": )" + type(k, n) + R"(}],
    "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "c",
             "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}],
    "outputs": [{"value": "c"}]})";
}

std::vector<float> randomMatrix(int64_t elements, unsigned seed) {
  std::vector<float> values(elements);
  unsigned state = seed;
  for (float &v : values) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
  }
  return values;
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  openblas_set_num_threads(1);
  std::printf("host CPU %s, OpenBLAS core %s, single-threaded; best of %d runs\n",
              hostCpuName().c_str(), openblas_get_corename(), repetitions);
  std::printf("%-16s %12s %12s %8s %12s\n", "M x N x K", "generated", "OpenBLAS", "ratio",
              "max rel diff");
  const int64_t shapes[][3] = {{256, 256, 256},  {512, 512, 512},  {1024, 1024, 1024},
                               {512, 1024, 256}, {1024, 256, 512}, {128, 2048, 768},
                               {100, 300, 200}};
  double ratioProduct = 1;
  int count = 0;
  for (const auto &shape : shapes) {
    const int64_t m = shape[0], n = shape[1], k = shape[2];
    bench::BenchProgram program(matmulGraph(m, n, k));
    std::vector<float> a = randomMatrix(m * k, 1), b = randomMatrix(k * n, 2);
    std::vector<float> generated(m * n), reference(m * n);
    double generatedSeconds = bench::bestSeconds(
        repetitions, [&] { program.runSteps({a.data(), b.data()}, {generated.data()}); });
    double blasSeconds = bench::bestSeconds(repetitions, [&] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k, b.data(),
                  n, 0.0f, reference.data(), n);
    });
    double maxDiff = 0, scale = 0;
    for (int64_t i = 0; i < m * n; ++i) {
      maxDiff = std::max(maxDiff, std::fabs(double(generated[i]) - reference[i]));
      scale = std::max(scale, std::fabs(double(reference[i])));
    }
    const double flops = 2.0 * m * n * k;
    const double ratio = blasSeconds / generatedSeconds;
    ratioProduct *= ratio;
    ++count;
    std::printf("%4ld x %4ld x %4ld %8.1f GF/s %7.1f GF/s %7.2fx %12.1e\n", long(m), long(n),
                long(k), flops / generatedSeconds * 1e-9, flops / blasSeconds * 1e-9, ratio,
                maxDiff / (scale > 0 ? scale : 1));
  }
  std::printf("geometric mean ratio generated/OpenBLAS: %.2fx (target >= 0.8x)\n",
              std::pow(ratioProduct, 1.0 / count));

  std::printf("\nhalf precision (f32 sums) against the generated f32 dot, best of %d runs\n",
              repetitions);
  std::printf("%-16s %12s %12s %12s %8s %8s\n", "M x N x K", "f32", "bf16", "f16", "bf16/f32",
              "f16/f32");
  const int64_t halfShapes[][3] = {{1024, 1024, 1024}, {512, 1024, 256}, {128, 2048, 768}};
  for (const auto &shape : halfShapes) {
    const int64_t m = shape[0], n = shape[1], k = shape[2];
    const std::vector<float> a = randomMatrix(m * k, 1), b = randomMatrix(k * n, 2);
    double gflops[3] = {};
    const char *elements[] = {"f32", "bf16", "f16"};
    for (int e = 0; e < 3; ++e) {
      bench::BenchProgram program(matmulGraph(m, n, k, elements[e]));
      std::vector<uint16_t> a16(a.size()), b16(b.size()), c16(m * n);
      for (size_t i = 0; i < a.size(); ++i)
        a16[i] = e == 1 ? floatToBfloat16(a[i]) : floatToHalf(a[i]);
      for (size_t i = 0; i < b.size(); ++i)
        b16[i] = e == 1 ? floatToBfloat16(b[i]) : floatToHalf(b[i]);
      std::vector<float> c(m * n);
      double seconds = bench::bestSeconds(repetitions, [&] {
        if (e == 0)
          program.runSteps({const_cast<float *>(a.data()), const_cast<float *>(b.data())},
                           {c.data()});
        else
          program.runSteps({a16.data(), b16.data()}, {c16.data()});
      });
      gflops[e] = 2.0 * m * n * k / seconds * 1e-9;
    }
    std::printf("%4ld x %4ld x %4ld %7.1f GF/s %7.1f GF/s %7.1f GF/s %7.2fx %7.2fx\n", long(m),
                long(n), long(k), gflops[0], gflops[1], gflops[2], gflops[1] / gflops[0],
                gflops[2] / gflops[0]);
  }
  return 0;
}
