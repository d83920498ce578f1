#pragma once
// Shared by the codegen benches: a graph goes through the real pipeline
// (read, verify, propagate, partition, generate) and is JIT-compiled with the
// generated program's own step function exported, so a bench can time the
// generated kernels alone on buffers it owns (no arena allocation, no
// scatter/gather copies, no thread launch in the timed region).

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/ir/Graph.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::bench {

/// A one-device program compiled for timing its steps.
class BenchProgram {
public:
  /// Reads, verifies, propagates, partitions, generates and JIT-compiles.
  explicit BenchProgram(const std::string &json);
  /// The same for a graph `frontend` reads (an MLIR importer...).
  explicit BenchProgram(const std::function<Graph()> &frontend);

  /// Runs the generated steps once on device position 0; `inputs` and
  /// `outputs` are the program's inputs' and outputs' local buffers.
  void runSteps(const std::vector<void *> &inputs, const std::vector<void *> &outputs);

  const GeneratedProgram &generated() const { return generated_; }

private:
  std::unique_ptr<Graph> graph_;
  SpmdProgram program_;
  GeneratedProgram generated_;
  std::unique_ptr<JitModule> module_;
  using StepsFn = void(const void *device, unsigned char **values);
  StepsFn *steps_ = nullptr;
  std::vector<unsigned char> spare_; // for values the caller did not bind
};

/// `n` pseudo-random floats in [-scale, scale) (a fixed LCG: the same every
/// run).
std::vector<float> randomFloats(int64_t n, float scale = 1);

using Clock = std::chrono::steady_clock;

/// Seconds now: wall time, or with SHARDGEN_BENCH_CLOCK=cpu this thread's CPU
/// time (on a machine shared with other processes a single-threaded kernel
/// then is not charged for the time slices others take; cache and memory
/// contention still count).
double benchNow();

/// Seconds of the fastest of `repetitions` calls of `fn` (after one warm-up),
/// each after an untimed call of `prepare` (e.g. one that evicts the caches):
/// the least disturbed run on a shared, noisy machine.
template <typename Prepare, typename Fn>
double bestSeconds(int repetitions, Prepare &&prepare, Fn &&fn) {
  fn();
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    prepare();
    const double start = benchNow();
    fn();
    double seconds = benchNow() - start;
    best = seconds < best ? seconds : best;
  }
  return best;
}

template <typename Fn> double bestSeconds(int repetitions, Fn &&fn) {
  return bestSeconds(repetitions, [] {}, fn);
}

} // namespace shardgen::bench
