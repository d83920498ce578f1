// Propagation benchmark, in three parts.
//
// 1. The pass: stacks of transformer layers (attention + MLP, Megatron-style
//    weight shardings, data-parallel activations) of about 1k..1M ops with
//    only the inputs annotated. Prints the CPU time of propagateShardings
//    (default strategy, graph building and results included), op visits per
//    second, and from a counting allocator the heap allocations of the call
//    per visit, the IR's bytes per op and the peak bytes per op the call adds
//    on top of the IR. Cost should grow linearly with the ops.
// 2. What `shardgen propagate` does (read JSON, verify, propagate, apply,
//    write JSON), stage by stage in this process, on dot/add/multiply/tanh
//    chains (each layer with its own weights): CPU seconds and the heap peak.
// 3. Against MLIR: the same chains written once as a shardgen graph (JSON)
//    and once in MLIR's `mesh` dialect (tosa ops). The whole `shardgen
//    propagate` process and `mlir-opt-19 --sharding-propagation` run on them
//    under GNU time (/usr/bin/time): CPU seconds and peak RSS of each; and the
//    pass alone (shardgen's in-process, MLIR's as its run less a run with an
//    empty pipeline). MLIR writes bytecode: its text printer crashes on these
//    shardings. Skipped when mlir-opt-19 is not installed (package
//    mlir-19-tools; not a project dependency).
//
//   bench_propagation [max_ops [max_mlir_ops]]   (defaults 1000000, 1000000)
//   SHARDGEN=/path/to/shardgen bench_propagation ...  (another build's binary)

#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "bench/propagation_programs.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"

using namespace shardgen;

// ---- Counting allocator: every operator new/delete of the process. ----

namespace {
struct HeapCounter {
  int64_t allocations = 0;
  int64_t live = 0;
  int64_t peak = 0;
};
HeapCounter heap;

void *countedAlloc(size_t size) {
  void *p = std::malloc(size ? size : 1);
  if (!p)
    throw std::bad_alloc();
  ++heap.allocations;
  heap.live += static_cast<int64_t>(malloc_usable_size(p));
  if (heap.live > heap.peak)
    heap.peak = heap.live;
  return p;
}

void countedFree(void *p) {
  if (!p)
    return;
  heap.live -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}
} // namespace

void *operator new(size_t size) { return countedAlloc(size); }
void *operator new[](size_t size) { return countedAlloc(size); }
void *operator new(size_t size, const std::nothrow_t &) noexcept try {
  return countedAlloc(size);
} catch (...) {
  return nullptr;
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept try {
  return countedAlloc(size);
} catch (...) {
  return nullptr;
}
void operator delete(void *p) noexcept { countedFree(p); }
void operator delete[](void *p) noexcept { countedFree(p); }
void operator delete(void *p, size_t) noexcept { countedFree(p); }
void operator delete[](void *p, size_t) noexcept { countedFree(p); }

namespace {

/// CPU seconds of this process: the machine is shared, and the wall clock
/// would also count other processes' turns (propagation is single-threaded).
double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void benchPass(int64_t maxOps) {
  std::printf("Propagation pass (transformer layer stacks, user-priority)\n");
  std::printf("%9s %8s %12s %14s %9s %12s %12s %12s\n", "ops", "seconds", "op visits",
              "visits/second", "ns/op", "allocs/visit", "IR bytes/op", "pass bytes/op");
  for (int64_t target = 1000; target <= maxOps; target *= 10) {
    int64_t liveBefore = heap.live;
    Graph graph = buildTransformerStack(target / kTransformerOpsPerLayer);
    if (target == 1000)
      verifyGraph(graph); // the generated graph is a valid one
    auto ops = static_cast<double>(graph.main.ops.size());
    int64_t irBytes = heap.live - liveBefore;
    heap.peak = heap.live;
    int64_t peakBase = heap.live, allocationsBefore = heap.allocations;
    double start = cpuSeconds();
    PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
    double seconds = cpuSeconds() - start;
    auto visits = static_cast<double>(result.opVisits);
    std::printf("%9.0f %8.3f %12.0f %14.0f %9.0f %12.2f %12.0f %12.0f\n", ops, seconds, visits,
                visits / seconds, seconds * 1e9 / ops,
                static_cast<double>(heap.allocations - allocationsBefore) / visits,
                static_cast<double>(irBytes) / ops,
                static_cast<double>(heap.peak - peakBase) / ops);
    std::fflush(stdout);
    if (std::getenv("SHOW_SHARDINGS"))
      for (size_t v = graph.values.size() - kTransformerOpsPerLayer; v < graph.values.size(); ++v)
        std::printf("  %s %s\n", graph.values[v].name.c_str(),
                    printSharding(result.shardingOf(static_cast<ValueId>(v))).c_str());
  }
}

/// What `shardgen propagate` does, stage by stage, in this process: CPU
/// seconds and the heap's peak above the start, per op, at the end of each
/// stage (the counting allocator; RSS adds the binary and allocator slack).
void benchStages(int64_t maxOps) {
  std::printf("\nshardgen propagate in-process by stage (dot/add/multiply/tanh chain): CPU seconds "
              "| heap peak bytes/op so far\n");
  std::printf("%9s %14s %14s %14s %14s %14s %9s\n", "ops", "read", "verify", "propagate", "apply",
              "write", "out MB");
  for (int64_t ops = 1000; ops <= maxOps; ops *= 10) {
    std::string json = bench::chainGraphJson(propagationChain(ops / kChainOpsPerLayer));
    heap.peak = heap.live;
    int64_t base = heap.live;
    auto n = static_cast<double>(ops);
    std::string line;
    auto stage = [&](auto &&run) {
      double start = cpuSeconds();
      run();
      char cell[64];
      std::snprintf(cell, sizeof cell, " %6.2f | %5.0f", cpuSeconds() - start,
                    static_cast<double>(heap.peak - base) / n);
      line += cell;
    };
    Graph graph;
    PropagationResult result;
    stage([&] {
      graph = readGraph(json);
      json.clear();
      json.shrink_to_fit();
    });
    stage([&] { verifyGraph(graph); });
    stage([&] { result = propagateShardings(graph, PropagationStrategy::UserPriority); });
    stage([&] {
      applyPropagation(graph, std::move(result)); // as `shardgen propagate` does
      result = PropagationResult{};
    });
    // As `shardgen propagate` writes: printed in pieces, never held whole.
    size_t written = 0;
    stage([&] { writeGraph(graph, [&](std::string_view piece) { written += piece.size(); }); });
    std::printf("%9lld%s %9.1f\n", static_cast<long long>(ops), line.c_str(),
                static_cast<double>(written) / 1e6);
    std::fflush(stdout);
  }
}

struct ProcessRun {
  bool ok = false;
  double seconds = 0; // CPU (user + system)
  int64_t peakRssBytes = 0;
  std::string output; // stderr
};

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs `argv` under GNU time (a child forked from this large process would
/// inherit its peak RSS), stdout to `stdoutPath`.
ProcessRun runProcess(const std::vector<std::string> &argv, const std::string &stdoutPath) {
  ProcessRun run;
  std::string errPath = stdoutPath + ".err", timePath = stdoutPath + ".time";
  std::vector<std::string> command = {"/usr/bin/time", "-f", "%U %S %M", "-o", timePath};
  command.insert(command.end(), argv.begin(), argv.end());
  std::fflush(stdout); // or the child's exit flushes our buffer twice
  pid_t pid = fork();
  if (pid == 0) {
    std::vector<char *> args;
    for (const std::string &arg : command)
      args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    if (!std::freopen(stdoutPath.c_str(), "w", stdout) ||
        !std::freopen(errPath.c_str(), "w", stderr))
      _exit(127);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    return run;
  run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  double user = 0, system = 0;
  long long kib = 0;
  std::istringstream times(readFile(timePath));
  times >> user >> system >> kib;
  run.seconds = user + system;
  run.peakRssBytes = kib * 1024;
  run.output = readFile(errPath);
  std::remove(errPath.c_str());
  std::remove(timePath.c_str());
  return run;
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// The in-process pass time of shardgen on the chain (read and verify excluded).
double shardgenPassSeconds(const std::string &json) {
  Graph graph = readGraph(json);
  verifyGraph(graph);
  double start = cpuSeconds();
  propagateShardings(graph, PropagationStrategy::UserPriority);
  return cpuSeconds() - start;
}

/// The shardgen binary built with this bench, unless $SHARDGEN names another.
std::string shardgenBinary() {
  const char *other = std::getenv("SHARDGEN");
  return other ? other : SHARDGEN_BINARY;
}

void benchAgainstMlir(int64_t maxOps, const std::string &mlirOpt) {
  std::printf("\nWhole process against mlir-opt-19 --sharding-propagation (dot/add/multiply/tanh "
              "chain, own weights per layer)\n");
  std::printf("%9s | %9s %9s %10s | %9s %9s %10s | %7s %7s %7s\n", "ops", "sg pass", "sg total",
              "sg B/op", "mlir pass", "mlir tot", "mlir B/op", "pass x", "total x", "mem x");
  std::string dir = "/tmp/bench_propagation." + std::to_string(getpid());
  std::string mkdir = "mkdir -p " + dir;
  if (std::system(mkdir.c_str()) != 0)
    return;
  for (int64_t ops = 1000; ops <= maxOps; ops *= 10) {
    int64_t layers = ops / kChainOpsPerLayer;
    std::string json = bench::chainGraphJson(propagationChain(layers)),
                mlir = chainGraphMlir(layers);
    writeFile(dir + "/chain.json", json);
    writeFile(dir + "/chain.mlir", mlir);
    double sgPass = shardgenPassSeconds(json);
    json.clear();
    json.shrink_to_fit();
    ProcessRun sg = runProcess(
        {shardgenBinary(), "propagate", dir + "/chain.json", "--no-progress"}, dir + "/out.json");
    // Bytecode out: MLIR 19's text printer crashes on some propagated
    // shardings of this chain (in MeshShardingAttr::print). The pass alone:
    // the CPU time of the run less that of a run without it.
    auto mlirOptRun = [&](const std::string &pipeline) {
      return runProcess(
          {mlirOpt, "--emit-bytecode", "--pass-pipeline=" + pipeline, dir + "/chain.mlir"},
          dir + "/out.mlir");
    };
    ProcessRun ml = mlirOptRun("builtin.module(func.func(sharding-propagation))");
    ProcessRun mlNoPass = mlirOptRun("builtin.module()");
    if (!sg.ok || !ml.ok) {
      std::printf("%9lld  failed: %s%s\n", static_cast<long long>(ops), sg.output.c_str(),
                  ml.output.substr(0, 400).c_str());
      continue;
    }
    double mlPass = ml.seconds - mlNoPass.seconds, n = static_cast<double>(layers * 4);
    std::printf("%9.0f | %9.3f %9.3f %10.0f | %9.3f %9.3f %10.0f | %7.1f %7.1f %7.1f\n", n, sgPass,
                sg.seconds, static_cast<double>(sg.peakRssBytes) / n, mlPass, ml.seconds,
                static_cast<double>(ml.peakRssBytes) / n, mlPass / sgPass, ml.seconds / sg.seconds,
                static_cast<double>(ml.peakRssBytes) / static_cast<double>(sg.peakRssBytes));
    std::fflush(stdout);
  }
  std::string cleanup = "rm -rf " + dir;
  if (std::system(cleanup.c_str()) != 0)
    std::printf("could not remove %s\n", dir.c_str());
  std::printf("CPU seconds. pass: the pass alone (MLIR's: its run less a run without the "
              "pass); total: the process (GNU time); B/op: its peak RSS per op; x: mlir-opt / "
              "shardgen (above 1: shardgen faster or leaner).\n");
}

std::string findMlirOpt() {
  for (const char *candidate : {"/usr/bin/mlir-opt-19", "/usr/lib/llvm-19/bin/mlir-opt"})
    if (access(candidate, X_OK) == 0)
      return candidate;
  return "";
}

} // namespace

int main(int argc, char **argv) {
  int64_t maxOps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  int64_t maxMlirOps = argc > 2 ? std::atoll(argv[2]) : 1000000;
  benchPass(maxOps);
  benchStages(maxOps);
  std::string mlirOpt = findMlirOpt();
  if (mlirOpt.empty()) {
    std::printf("\nmlir-opt-19 not found (package mlir-19-tools): no MLIR baseline\n");
    return 0;
  }
  benchAgainstMlir(maxMlirOps, mlirOpt);
  return 0;
}
