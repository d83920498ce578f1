// JIT compile + first-call latency of a generated-like kernel file, against
// `clang++-19 -O2 -c` of the same file in a subprocess (the AOT route's cost
// for one translation unit, without even linking it).
//
//   bench_jit_latency [repetitions]
#include "compiler/jit/JitCompiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

constexpr int bufferElements = 64 * 64;
constexpr int bufferCount = 4;

/// A program as codegen emits it: C headers only, compile-time shapes, one
/// kernel per op, an extern "C" entry that runs them in sequence. Buffers hold
/// 64x64 floats; every kernel stays within that.
std::string generateKernelFile() {
  std::ostringstream out;
  out << "// Generated-like program: elementwise, matmul, reduce, transpose, softmax.\n"
         "#include <stddef.h>\n#include <stdint.h>\n\n"
         "#define KERNEL static inline __attribute__((always_inline))\n"
         "namespace program {\n\n"
         "template <int64_t N, typename Op>\n"
         "KERNEL void elementwise(const float *a, const float *b, float *c, Op op) {\n"
         "  for (int64_t i = 0; i < N; ++i) c[i] = op(a[i], b[i]);\n"
         "}\n\n";
  const int shapes[][3] = {{64, 64, 64}, {32, 64, 48}, {64, 16, 64}, {16, 64, 32}};
  const char *binaryOps[] = {"x + y", "x * y", "x > y ? x : y", "x - 0.5f * y"};
  int kernel = 0;
  for (int round = 0; round < 4; ++round) {
    const int m = shapes[round][0], n = shapes[round][1], k = shapes[round][2];
    out << "// ---- stage " << round << " ----\n"
        << "KERNEL void kernel" << kernel++ << "(const float *a, const float *b, float *c) {\n"
        << "  elementwise<" << m * n << ">(a, b, c, [](float x, float y) { return "
        << binaryOps[round] << "; });\n}\n\n";
    out << "KERNEL void kernel" << kernel++
        << "(const float *__restrict a, const float *__restrict b, float *__restrict c) {\n"
        << "  constexpr int64_t M = " << m << ", N = " << n << ", K = " << k << ";\n"
        << "  for (int64_t i = 0; i < M; ++i) {\n"
        << "    for (int64_t j = 0; j < N; ++j) c[i * N + j] = 0.0f;\n"
        << "    for (int64_t p = 0; p < K; ++p) {\n"
        << "      const float lhs = a[i * K + p];\n"
        << "      for (int64_t j = 0; j < N; ++j) c[i * N + j] += lhs * b[p * N + j];\n"
        << "    }\n  }\n}\n\n";
    out << "KERNEL void kernel" << kernel++
        << "(const float *__restrict in, float *__restrict out) {\n"
        << "  constexpr int64_t Rows = " << m << ", Cols = " << n << ";\n"
        << "  for (int64_t i = 0; i < Rows; ++i) {\n"
        << "    float sum = 0.0f;\n"
        << "    for (int64_t j = 0; j < Cols; ++j) sum += in[i * Cols + j];\n"
        << "    out[i] = sum;\n  }\n}\n\n";
    out << "KERNEL void kernel" << kernel++
        << "(const float *__restrict in, float *__restrict out) {\n"
        << "  constexpr int64_t Rows = " << m << ", Cols = " << n << ";\n"
        << "  for (int64_t i = 0; i < Rows; ++i)\n"
        << "    for (int64_t j = 0; j < Cols; ++j) out[j * Rows + i] = in[i * Cols + j];\n"
        << "}\n\n";
    out << "KERNEL void kernel" << kernel++
        << "(const float *__restrict in, float *__restrict out) {\n"
        << "  constexpr int64_t Rows = " << m << ", Cols = " << n << ";\n"
        << "  for (int64_t i = 0; i < Rows; ++i) {\n"
        << "    float top = in[i * Cols];\n"
        << "    for (int64_t j = 1; j < Cols; ++j) top = in[i * Cols + j] > top ? in[i * Cols + j] "
           ": top;\n"
        << "    float sum = 0.0f;\n"
        << "    for (int64_t j = 0; j < Cols; ++j) {\n"
        << "      out[i * Cols + j] = __builtin_expf(in[i * Cols + j] - top);\n"
        << "      sum += out[i * Cols + j];\n"
        << "    }\n"
        << "    for (int64_t j = 0; j < Cols; ++j) out[i * Cols + j] /= sum;\n"
        << "  }\n}\n\n";
  }
  out << "} // namespace program\n\n"
         "extern \"C\" void run_program(float *const *buffers) {\n";
  const char *kernelArguments[] = {"buffers[0], buffers[1], buffers[2]",
                                   "buffers[2], buffers[1], buffers[3]", "buffers[3], buffers[0]",
                                   "buffers[3], buffers[1]", "buffers[1], buffers[0]"};
  for (int id = 0; id < kernel; ++id)
    out << "  program::kernel" << id << "(" << kernelArguments[id % 5] << ");\n";
  out << "}\n";
  return out.str();
}

double jitCompileAndFirstCall(const std::string &source, int optLevel,
                              shardgen::JitTimings &timings) {
  std::vector<std::vector<float>> storage(bufferCount, std::vector<float>(bufferElements, 0.25f));
  std::vector<float *> buffers;
  for (auto &buffer : storage)
    buffers.push_back(buffer.data());
  shardgen::JitOptions options;
  options.optLevel = optLevel;
  options.hostSymbols = shardgen::baseHostSymbols(); // expf
  auto start = Clock::now();
  auto module = shardgen::compileCpp(source, "program.cpp", options);
  module->lookupFunction<void(float *const *)>("run_program")(buffers.data());
  double elapsed = millisecondsSince(start);
  timings = module->timings();
  return elapsed;
}

/// The fixed cost: a module with one trivial function.
double jitTrivialModule() {
  auto start = Clock::now();
  auto module = shardgen::compileCpp("extern \"C\" int one() { return 1; }\n", "one.cpp");
  module->lookupFunction<int()>("one")();
  return millisecondsSince(start);
}

/// Four programs compiled by two threads, as a multi-program run would.
double jitFourOnTwoThreads(const std::string &source) {
  shardgen::JitOptions baseOptions;
  baseOptions.hostSymbols = shardgen::baseHostSymbols();
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 2; ++i)
        shardgen::compileCpp(source, "program.cpp", baseOptions);
    });
  for (auto &thread : threads)
    thread.join();
  return millisecondsSince(start);
}

double clangCompile(const std::filesystem::path &file) {
  std::string command =
      std::string(SHARDGEN_CLANGXX_BINARY) +
      " -std=c++20 -O2 -march=native -fPIC -Wno-invalid-feature-combination -c '" + file.string() +
      "' -o '" + file.string() + ".o'";
  auto start = Clock::now();
  if (std::system(command.c_str()) != 0) {
    std::fprintf(stderr, "failed: %s\n", command.c_str());
    std::exit(1);
  }
  return millisecondsSince(start);
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const std::string source = generateKernelFile();
  const auto lines = std::count(source.begin(), source.end(), '\n');

  auto file = std::filesystem::temp_directory_path() / "shardgen_bench_jit_latency.cpp";
  std::ofstream(file) << source;

  shardgen::JitTimings timings;
  jitCompileAndFirstCall(source, 2, timings); // warm up: loads, page faults
  std::vector<double> jitO2, jitO0, frontend, backend, clang, trivial, fourOnTwo;
  for (int i = 0; i < repetitions; ++i) {
    trivial.push_back(jitTrivialModule());
    fourOnTwo.push_back(jitFourOnTwoThreads(source));
    jitO2.push_back(jitCompileAndFirstCall(source, 2, timings));
    frontend.push_back(timings.frontendMs);
    backend.push_back(timings.backendMs);
    jitO0.push_back(jitCompileAndFirstCall(source, 0, timings));
    clang.push_back(clangCompile(file));
  }
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + ".o");

  std::printf("kernel file: %ld lines, host CPU %s, median of %d\n", static_cast<long>(lines),
              shardgen::hostCpuName().c_str(), repetitions);
  std::printf("JIT -O2 compile + first call: %7.1f ms (clang frontend+IR opt %.1f ms, "
              "codegen+link %.1f ms)\n",
              median(jitO2), median(frontend), median(backend));
  std::printf("JIT -O0 compile + first call: %7.1f ms\n", median(jitO0));
  std::printf("JIT -O2 trivial module:       %7.1f ms\n", median(trivial));
  std::printf("JIT -O2 4 files on 2 threads: %7.1f ms\n", median(fourOnTwo));
  std::printf("clang++-19 -O2 -c subprocess: %7.1f ms\n", median(clang));
  std::printf("ratio JIT -O2 / clang++ -c:   %7.2f\n", median(jitO2) / median(clang));
  return 0;
}
