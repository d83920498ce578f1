// JSON-to-first-result latency of the in-process pipeline (what `shardgen
// run` does: read, verify, propagate, partition, generate, JIT, run) on the
// samples and on layer chains of 1k, 10k and 100k ops (bench/chain_graph.h,
// each layer with its own weights), against a bare `clang++-19 -std=c++20
// -O2 -march=native -c` of the generated files in a subprocess, one after
// the other (compiling alone, no link, no run; same target CPU as the JIT).
// Ratio = pipeline / clang compile: below 1 means the whole in-process route
// beats compiling the files the ordinary way. Also: seconds per 1k ops, and
// the whole pipeline again with the compile cache warm (a second `shardgen
// run` of the unchanged graph).
//
//   bench_run_latency [repetitions] [max_chain_ops] [sample.json ...]
//   (defaults: 5 repetitions of the samples, chains up to 100000 ops)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "bench/chain_graph.h"
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

struct BenchGraph {
  std::string label;
  std::function<Graph()> read;
  int64_t ops = 0;
};

struct PipelineTimes {
  double frontMs = 0;    // read + verify + propagate + partition
  double generateMs = 0; // C++ generation
  double jitMs = 0;      // in-process compile
  double runMs = 0;      // first run on the threads runtime
  double total() const { return frontMs + generateMs + jitMs + runMs; }
};

/// The whole pipeline once; `cacheDir` "" compiles without the cache.
PipelineTimes runPipeline(const BenchGraph &source, const std::string &cacheDir,
                          GeneratedProgram *generatedOut) {
  using pipeline::Pass;
  pipeline::Pipeline passes;
  Graph graph = passes.read(source.read);
  passes.verify(graph);
  PropagationResult result = passes.propagate(graph, PropagationStrategy::UserPriority);
  SpmdProgram program = passes.partition(graph, result);
  GeneratedProgram generated = passes.generate(program);
  JitOptions options = generatedCodeJitOptions();
  options.cacheDir = cacheDir;
  std::unique_ptr<CompiledProgram> compiled = passes.jit(program, generated, options);
  PipelineTimes times;
  for (Pass pass : {Pass::Read, Pass::Verify, Pass::Propagate, Pass::Partition})
    times.frontMs += pipeline::passMilliseconds(passes.timings(), pass);
  times.generateMs = pipeline::passMilliseconds(passes.timings(), Pass::Generate);
  times.jitMs = pipeline::passMilliseconds(passes.timings(), Pass::Jit);
  auto start = Clock::now();
  std::vector<Literal> inputs;
  for (SpmdValueId id : program.inputs)
    inputs.emplace_back(program.layout(id).globalType);
  std::vector<Literal> outputs = compiled->run(inputs);
  times.runMs = millisecondsSince(start);
  if (generatedOut)
    *generatedOut = std::move(generated);
  return times;
}

/// clang++ -c of every device file of the folder, one after the other.
double clangCompile(const std::filesystem::path &dir, const GeneratedProgram &generated) {
  double ms = 0;
  for (const auto &[name, source] : deviceSources(generated)) {
    const std::string file = (dir / name).string();
    std::string command = std::string(SHARDGEN_CLANGXX_BINARY) +
                          " -std=c++20 -O2 -march=native -Wno-invalid-feature-combination -I'" +
                          dir.string() + "' -I'" + (dir / "runtime" / "include").string() +
                          "' -c '" + file + "' -o '" + file + ".o'";
    auto start = Clock::now();
    if (std::system(command.c_str()) != 0) {
      std::fprintf(stderr, "failed: %s\n", command.c_str());
      std::exit(1);
    }
    ms += millisecondsSince(start);
  }
  return ms;
}

std::vector<BenchGraph> benchGraphs(int argc, char **argv, int64_t maxChainOps) {
  std::vector<std::string> samples;
  for (int i = 3; i < argc; ++i)
    samples.push_back(argv[i]);
  if (samples.empty())
    samples = {std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlp.json",
               std::string(SHARDGEN_SOURCE_DIR) + "/samples/attention.json"};
  std::vector<BenchGraph> graphs;
  for (const std::string &path : samples) {
    Graph graph = readGraphFile(path);
    int64_t ops = static_cast<int64_t>(graph.main.ops.size());
    graphs.push_back({std::filesystem::path(path).filename().string(),
                      [path] { return readGraphFile(path); }, ops});
  }
  for (int64_t ops = 1000; ops <= maxChainOps; ops *= 10) {
    bench::ChainSpec chain; // h = tanh(h . w_i + b_i), 2x2 mesh
    chain.layers = ops / chain.opsPerLayer();
    std::string json = bench::chainGraphJson(chain);
    graphs.push_back({"chain " + std::to_string(ops / 1000) + "k",
                      [json] { return readGraph(json); }, chain.layers * chain.opsPerLayer()});
  }
  return graphs;
}

void measure(const BenchGraph &source, int repetitions) {
  namespace fs = std::filesystem;
  const bool large = source.ops >= 10000; // once, no warm-up: tens of seconds each
  GeneratedProgram generated;
  if (!large)
    runPipeline(source, "", nullptr); // warm-up: first loads and page faults
  std::vector<double> front, generate, jit, run, total, clang;
  for (int r = 0; r < (large ? 1 : repetitions); ++r) {
    PipelineTimes times = runPipeline(source, "", &generated);
    front.push_back(times.frontMs);
    generate.push_back(times.generateMs);
    jit.push_back(times.jitMs);
    run.push_back(times.runMs);
    total.push_back(times.total());
  }
  const fs::path dir =
      fs::temp_directory_path() /
      ("shardgen_run_latency_" + std::to_string(::getpid()) + "_" + generated.name);
  writeAotProject(dir.string(), generated);
  for (int r = 0; r < (large ? 1 : repetitions); ++r)
    clang.push_back(clangCompile(dir, generated));
  // The compile cache: one run fills it, the next hits.
  const std::string cache = (dir / "cache").string();
  fs::create_directories(cache);
  runPipeline(source, cache, nullptr);
  const double hit = runPipeline(source, cache, nullptr).total();
  fs::remove_all(dir);
  // Seconds per 1k ops only where there are thousands of them.
  char perThousand[32] = "       -";
  if (source.ops >= 500)
    std::snprintf(perThousand, sizeof perThousand, "%7.3fs",
                  median(total) / 1e3 / (static_cast<double>(source.ops) / 1000));
  std::printf("%-15s %7lld %5zu %7.2fs %7.2fs %7.2fs %6.3fs %7.2fs %s %7.2fs %9.2fs %6.2fx\n",
              source.label.c_str(), static_cast<long long>(source.ops),
              generated.deviceParts.size() + 1, median(front) / 1e3, median(generate) / 1e3,
              median(jit) / 1e3, median(run) / 1e3, median(total) / 1e3, perThousand, hit / 1e3,
              median(clang) / 1e3, median(total) / median(clang));
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const int64_t maxChainOps = argc > 2 ? std::atoll(argv[2]) : 100000;
  std::printf("host CPU %s, %u cores; samples: median of %d runs (after one warm-up); chains of "
              "10k ops and more: one run\n",
              hostCpuName().c_str(), std::thread::hardware_concurrency(), repetitions);
  std::printf("%-15s %7s %5s %8s %8s %8s %7s %8s %8s %8s %10s %7s\n", "graph", "ops", "files",
              "front", "generate", "JIT", "run", "total", "s/1k ops", "cached", "clang++ -c",
              "ratio");
  for (const BenchGraph &graph : benchGraphs(argc, argv, maxChainOps))
    measure(graph, repetitions);
  std::printf("total = JSON to first result in-process; cached = the same with the compile cache "
              "warm;\nratio = total / clang++ -O2 -c of the generated files (one after the "
              "other)\n");
  return 0;
}
