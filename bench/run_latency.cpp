// JSON-to-first-result latency of the in-process pipeline (what `shardgen
// run` does: read, verify, propagate, partition, generate, JIT, run) on the
// samples, against a bare `clang++-19 -std=c++20 -O2 -march=native -c` of the
// generated file in a subprocess (compiling alone, no link, no run; same
// target CPU as the JIT). Ratio = pipeline / clang compile: below 1 means the
// whole in-process route beats compiling the file the ordinary way.
//
//   bench_run_latency [repetitions] [sample.json ...]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/codegen/AotWriter.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/pipeline/Pipeline.h"

using namespace shardgen;

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct PipelineTimes {
  double frontMs = 0;    // read + verify + propagate + partition
  double generateMs = 0; // C++ generation
  double jitMs = 0;      // in-process compile
  double runMs = 0;      // first run on the threads runtime
  double total() const { return frontMs + generateMs + jitMs + runMs; }
};

PipelineTimes runPipeline(const std::string &path, GeneratedProgram *generatedOut) {
  using pipeline::Pass;
  pipeline::CompiledGraph compiled = pipeline::compileGraph([&] { return readGraphFile(path); });
  PipelineTimes times;
  for (Pass pass : {Pass::Read, Pass::Verify, Pass::Propagate, Pass::Partition})
    times.frontMs += pipeline::passMilliseconds(compiled.timings, pass);
  times.generateMs = pipeline::passMilliseconds(compiled.timings, Pass::Generate);
  times.jitMs = pipeline::passMilliseconds(compiled.timings, Pass::Jit);
  auto start = Clock::now();
  std::vector<Literal> inputs;
  for (SpmdValueId id : compiled.program->inputs)
    inputs.emplace_back(compiled.program->layout(id).globalType);
  std::vector<Literal> outputs = compiled.compiled->run(inputs);
  times.runMs = millisecondsSince(start);
  if (generatedOut)
    *generatedOut = compiled.generated;
  return times;
}

double clangCompile(const std::filesystem::path &dir, const std::string &name) {
  const std::string file = (dir / (name + ".cpp")).string();
  std::string command = std::string(SHARDGEN_CLANGXX_BINARY) +
                        " -std=c++20 -O2 -march=native -Wno-invalid-feature-combination -I'" +
                        dir.string() + "' -I'" + (dir / "runtime" / "include").string() + "' -c '" +
                        file + "' -o '" + file + ".o'";
  auto start = Clock::now();
  if (std::system(command.c_str()) != 0) {
    std::fprintf(stderr, "failed: %s\n", command.c_str());
    std::exit(1);
  }
  return millisecondsSince(start);
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::vector<std::string> samples;
  for (int i = 2; i < argc; ++i)
    samples.push_back(argv[i]);
  if (samples.empty())
    samples = {std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlp.json",
               std::string(SHARDGEN_SOURCE_DIR) + "/samples/attention.json"};

  std::printf("host CPU %s, median of %d runs (after one warm-up)\n", hostCpuName().c_str(),
              repetitions);
  std::printf("%-16s %8s %8s %8s %8s %10s %12s %7s\n", "sample", "front", "generate", "JIT", "run",
              "total", "clang++ -c", "ratio");
  for (const std::string &path : samples) {
    GeneratedProgram generated;
    runPipeline(path, &generated); // warm-up: first loads and page faults
    const auto dir =
        std::filesystem::temp_directory_path() / ("shardgen_run_latency_" + generated.name);
    writeAotProject(dir.string(), generated);
    std::vector<double> front, generate, jit, run, total, clang;
    for (int r = 0; r < repetitions; ++r) {
      PipelineTimes times = runPipeline(path, nullptr);
      front.push_back(times.frontMs);
      generate.push_back(times.generateMs);
      jit.push_back(times.jitMs);
      run.push_back(times.runMs);
      total.push_back(times.total());
      clang.push_back(clangCompile(dir, generated.name));
    }
    std::filesystem::remove_all(dir);
    std::printf("%-16s %6.1fms %6.1fms %6.1fms %6.1fms %8.1fms %10.1fms %6.2fx\n",
                std::filesystem::path(path).filename().c_str(), median(front), median(generate),
                median(jit), median(run), median(total), median(clang),
                median(total) / median(clang));
  }
  std::printf("ratio = in-process JSON-to-first-result / clang++ -O2 -c of the generated file\n");
  return 0;
}
