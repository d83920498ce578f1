// Loop kernels as codegen emits them: compile-time shapes, host vector width.
#include "compiler/jit/JitCompiler.h"

#include <doctest/doctest.h>

#include <vector>

namespace shardgen {
namespace {

TEST_CASE("a loop kernel is vectorized and computes the right values") {
  JitOptions options;
  options.keepIr = true;
  auto module = compileCpp(R"(
    constexpr int n = 1003; // not a multiple of any vector width
    extern "C" void axpy(float a, const float *__restrict x, float *__restrict y) {
      for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
    }
  )",
                           "axpy.cpp", options);
  // The loop body works on vectors of floats, as wide as the host allows:
  // without the host CPU, LLVM would target SSE2's 4 floats.
  CHECK(module->ir().find(" x float>") != std::string::npos);
  if (__builtin_cpu_supports("avx2"))
    CHECK((module->ir().find("<8 x float>") != std::string::npos ||
           module->ir().find("<16 x float>") != std::string::npos));

  std::vector<float> x(1003), y(1003);
  for (int i = 0; i < 1003; ++i) {
    x[i] = static_cast<float>(i % 17);
    y[i] = static_cast<float>(i % 5);
  }
  module->lookupFunction<void(float, const float *, float *)>("axpy")(2.0f, x.data(), y.data());
  for (int i = 0; i < 1003; ++i) // small integers: exact, fused or not
    REQUIRE(y[i] == static_cast<float>(2 * (i % 17) + i % 5));
}

TEST_CASE("a matmul kernel with compile-time shapes matches a host loop") {
  auto module = compileCpp(R"(
    template <int M, int N, int K>
    void matmul(const float *a, const float *b, float *c) {
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
          float sum = 0;
          for (int k = 0; k < K; ++k) sum += a[i * K + k] * b[k * N + j];
          c[i * N + j] = sum;
        }
    }
    extern "C" void matmul_6x10x7(const float *a, const float *b, float *c) {
      matmul<6, 10, 7>(a, b, c);
    }
  )",
                           "matmul.cpp");
  constexpr int m = 6, n = 10, k = 7;
  std::vector<float> a(m * k), b(k * n), c(m * n, -1.0f);
  for (int i = 0; i < m * k; ++i)
    a[i] = static_cast<float>(i % 5 - 2);
  for (int i = 0; i < k * n; ++i)
    b[i] = static_cast<float>(i % 3);
  module->lookupFunction<void(const float *, const float *, float *)>("matmul_6x10x7")(
      a.data(), b.data(), c.data());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int expected = 0;
      for (int p = 0; p < k; ++p)
        expected += (((i * k + p) % 5) - 2) * ((p * n + j) % 3);
      CHECK(c[i * n + j] == static_cast<float>(expected));
    }
}

} // namespace
} // namespace shardgen
