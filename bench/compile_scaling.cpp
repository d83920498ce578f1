// Compile-time scaling: what `shardgen compile` does (read, verify,
// propagate, partition, generate C++) on chains of 10k, 100k and 1M ops whose
// layers each have their own weights (dot_general with a weight input, add
// of a bias input, tanh; batch on `data` of a 2x2 mesh). Prints the seconds
// of each stage and the seconds per 1k ops: a linear pipeline keeps the last
// column flat. Writing the files is left out (disk, not compiler, time).
// Times are CPU seconds of the process (the stages run on one thread).
//
//   bench_compile_scaling [max_ops]   (default 1000000)

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <string>

#include "bench/chain_graph.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/pipeline/Pipeline.h"

using namespace shardgen;

namespace {

/// CPU seconds of this process: on a shared machine the wall clock also
/// counts other processes' turns (the pipeline is single-threaded).
struct Clock {
  using time_point = double;
  static double now() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
};

/// The CPU seconds of each pass.
struct CpuSeconds : pipeline::PassObserver {
  std::map<pipeline::Pass, double> of;
  void runPass(pipeline::Pass pass, const std::function<void()> &work) override {
    double start = Clock::now();
    work();
    of[pass] += Clock::now() - start;
  }
};

} // namespace

int main(int argc, char **argv) {
  const int64_t maxOps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  std::printf("%9s %8s %8s %8s %8s %8s %8s %10s\n", "ops", "read", "verify", "propagate",
              "partition", "generate", "total", "s / 1k ops");
  for (int64_t ops = 10000; ops <= maxOps; ops *= 10) {
    bench::ChainSpec chain; // h = tanh(h . w_i + b_i), 3 ops a layer
    chain.layers = ops / chain.opsPerLayer();
    const std::string json = bench::chainGraphJson(chain);
    CpuSeconds seconds;
    pipeline::Pipeline passes(&seconds);
    Graph graph = passes.read([&] { return readGraph(json); });
    passes.verify(graph);
    PropagationResult result = passes.propagate(graph, PropagationStrategy::UserPriority);
    SpmdProgram program = passes.partition(graph, result);
    passes.generate(program);
    using pipeline::Pass;
    const double read = seconds.of[Pass::Read], verify = seconds.of[Pass::Verify];
    const double propagate = seconds.of[Pass::Propagate], partition = seconds.of[Pass::Partition];
    const double generate = seconds.of[Pass::Generate];
    const double total = read + verify + propagate + partition + generate;
    std::printf("%9lld %7.2fs %7.2fs %8.2fs %8.2fs %7.2fs %7.2fs %10.4f\n",
                static_cast<long long>(ops), read, verify, propagate, partition, generate, total,
                total / (static_cast<double>(ops) / 1000));
    std::fflush(stdout);
  }
  return 0;
}
