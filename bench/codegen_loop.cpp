// The cost of a while loop in generated code, measured in one run:
//
// (a) per-iteration overhead: a loop of N iterations whose body is one add
//     on 16 f32 (and the counter's add) against the same loop with N = 0,
//     giving the time of one iteration, and against the body written out N
//     times straight-line (no loop; the adds fuse into one pass), the body's
//     own cost. Only the generated steps are timed, one device
//     (codegen_bench_util.h).
// (b) samples/mlir/scan_mlp.mlir (a lax.scan over stacked weights: while +
//     dynamic_slice) against bench/inputs/scan_mlp_unrolled.mlir (its layers
//     written out with static slices), and both at a larger size
//     (generated: batch 128, width 512, 8 layers), on one device and on the
//     2x2 mesh: whole calls of the JIT-compiled program on the caller's
//     buffers (the threads backend's launch included), as `run --repeat`.
//
//   bench_codegen_loop [repetitions]
//   (SHARDGEN_BENCH_DUMP=DIR: also writes the (b) programs into DIR as .mlir)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/codegen_bench_util.h"
#include "compiler/driver/MeshSizes.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/pipeline/Pipeline.h"

using namespace shardgen;

namespace {

std::string str(int64_t n) { return std::to_string(n); }

/// x + y, N times in a while loop (N = 0: the loop's cost without
/// iterations).
std::string loopProgram(int64_t n) {
  return R"(sdy.mesh @mesh = <["x"=1]>
func.func @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> tensor<16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %x = %arg0) : tensor<i32>, tensor<16xf32>
   cond {
    %n = stablehlo.constant dense<)" +
         str(n) + R"(> : tensor<i32>
    %p = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %y = stablehlo.add %x, %arg1 : tensor<16xf32>
    stablehlo.return %j, %y : tensor<i32>, tensor<16xf32>
  }
  return %0#1 : tensor<16xf32>
}
)";
}

/// The same body written out N times.
std::string straightProgram(int64_t n) {
  std::string text = R"(sdy.mesh @mesh = <["x"=1]>
func.func @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> tensor<16xf32> {
)";
  std::string last = "%arg0";
  for (int64_t k = 0; k < n; ++k) {
    text += "  %" + str(k) + " = stablehlo.add " + last + ", %arg1 : tensor<16xf32>\n";
    last = "%" + str(k);
  }
  return text + "  return " + last + " : tensor<16xf32>\n}\n";
}

struct MlpSize {
  int64_t batch, width, layers;
};

/// The types of an MLP's activations (x), one layer's weights (ww, and as
/// a slice w1) and the stacked weights (w).
struct MlpTypes {
  std::string x, ww, w1, w;
  explicit MlpTypes(const MlpSize &s)
      : x("tensor<" + str(s.batch) + "x" + str(s.width) + "xf32>"),
        ww("tensor<" + str(s.width) + "x" + str(s.width) + "xf32>"),
        w1("tensor<1x" + str(s.width) + "x" + str(s.width) + "xf32>"),
        w("tensor<" + str(s.layers) + "x" + str(s.width) + "x" + str(s.width) + "xf32>") {}
};

std::string mlpHeader(const MlpSize &s, const std::string &name) {
  const MlpTypes t(s);
  const std::string &x = t.x, &w = t.w;
  return "module @" + name + R"( {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: )" +
         x + R"( {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: )" + w +
         R"( {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>}) -> ()" + x +
         R"( {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
)";
}

/// samples/mlir/scan_mlp.mlir at another size.
std::string scanMlp(const MlpSize &s) {
  const MlpTypes t(s);
  const std::string &x = t.x, &ww = t.ww, &w1 = t.w1, &w = t.w;
  return mlpHeader(s, "jit_scan_mlp") + R"(    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, )" +
         x + ", " + w + R"(
     cond {
      %c_2 = stablehlo.constant dense<)" +
         str(s.layers) + R"(> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_3 = stablehlo.constant dense<)" +
         str(s.layers) + R"(> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %3 = stablehlo.select %1, %2, %iterArg : tensor<i1>, tensor<i32>
      %4 = stablehlo.dynamic_slice %iterArg_1, %3, %c_2, %c_2, sizes = [1, )" +
         str(s.width) + ", " + str(s.width) + "] : (" + w +
         ", tensor<i32>, tensor<i32>, tensor<i32>) -> " + w1 + R"(
      %5 = stablehlo.reshape %4 : ()" +
         w1 + ") -> " + ww + R"(
      %6 = stablehlo.dot_general %iterArg_0, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : ()" +
         x + ", " + ww + ") -> " + x + R"(
      %7 = stablehlo.tanh %6 : )" +
         x + R"(
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      stablehlo.return %8, %7, %iterArg_1 : tensor<i32>, )" +
         x + ", " + w + R"(
    }
    return %0#1 : )" +
         x + "\n  }\n}\n";
}

/// bench/inputs/scan_mlp_unrolled.mlir at another size.
std::string unrolledMlp(const MlpSize &s) {
  const MlpTypes t(s);
  const std::string &x = t.x, &ww = t.ww, &w1 = t.w1, &w = t.w;
  std::string text = mlpHeader(s, "jit_unrolled_mlp");
  std::string last = "%arg0";
  for (int64_t l = 0; l < s.layers; ++l) {
    auto v = [&](int64_t j) { return "%" + str(4 * l + j); };
    text += "    " + v(0) + " = stablehlo.slice %arg1 [" + str(l) + ":" + str(l + 1) +
            ", 0:" + str(s.width) + ", 0:" + str(s.width) + "] : (" + w + ") -> " + w1 + "\n";
    text += "    " + v(1) + " = stablehlo.reshape " + v(0) + " : (" + w1 + ") -> " + ww + "\n";
    text += "    " + v(2) + " = stablehlo.dot_general " + last + ", " + v(1) +
            ", contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (" + x + ", " + ww +
            ") -> " + x + "\n";
    text += "    " + v(3) + " = stablehlo.tanh " + v(2) + " : " + x + "\n";
    last = v(3);
  }
  return text + "    return " + last + " : " + x + "\n  }\n}\n";
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Graph importText(const std::string &text, const driver::MeshSizes &mesh) {
  Graph graph = std::move(mlir::importMlir(text).graph);
  driver::applyMeshSizes(graph, mesh);
  return graph;
}

/// Seconds per call of `fn`: the best of `repetitions` batches of `calls`.
template <typename Fn> double perCall(int repetitions, int calls, Fn &&fn) {
  return bench::bestSeconds(repetitions,
                            [&] {
                              for (int c = 0; c < calls; ++c)
                                fn();
                            }) /
         calls;
}

/// (a): seconds per generated-steps call of `text` (one device).
double stepsSeconds(const std::string &text, int repetitions, int calls) {
  bench::BenchProgram program([&] { return importText(text, {}); });
  std::vector<float> a = bench::randomFloats(16), b = bench::randomFloats(16), out(16);
  return perCall(repetitions, calls, [&] { program.runSteps({a.data(), b.data()}, {out.data()}); });
}

struct WholeRun {
  double seconds = 0;
  std::vector<float> result;
};

/// (b): seconds per whole call of the compiled program on `mesh`.
WholeRun callSeconds(const std::string &text, const driver::MeshSizes &mesh, const MlpSize &s,
                     int repetitions, int calls) {
  pipeline::CompiledGraph compiled = pipeline::compileGraph([&] { return importText(text, mesh); });
  const std::vector<float> x = bench::randomFloats(s.batch * s.width, 0.25f),
                           w = bench::randomFloats(s.layers * s.width * s.width, 0.25f);
  WholeRun run;
  run.result.assign(x.size(), 0);
  const MeshLauncher launcher = threadsLauncher();
  run.seconds = perCall(repetitions, calls, [&] {
    compiled.compiled->run({x.data(), w.data()}, {run.result.data()}, launcher);
  });
  return run;
}

} // namespace

int main(int argc, char **argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;

  std::printf("(a) while loop, body: one add on 16 f32 (+ the counter), one device, steps only\n");
  const double empty = stepsSeconds(loopProgram(0), repetitions, 2000);
  for (int64_t n : {1000, 10000}) {
    const double loop = stepsSeconds(loopProgram(n), repetitions, 20);
    const double straight = stepsSeconds(straightProgram(n), repetitions, 20);
    const double perIteration = (loop - empty) / static_cast<double>(n);
    const double body = straight / static_cast<double>(n);
    std::printf("N=%-6lld per iteration %7.1f ns  straight-line per add %6.1f ns  overhead "
                "%7.1f ns (target <= 1000 ns)\n",
                static_cast<long long>(n), perIteration * 1e9, body * 1e9,
                (perIteration - body) * 1e9);
  }
  std::printf("N=0      whole loop step %.1f ns\n\n", empty * 1e9);

  std::printf("(b) scanned MLP (while + dynamic_slice) vs unrolled (static slices), whole calls\n");
  std::printf("%-34s %-6s %12s %12s %7s\n", "program", "mesh", "scan", "unrolled", "ratio");
  const std::string source = SHARDGEN_SOURCE_DIR;
  struct Case {
    std::string label, scan, unrolled;
    MlpSize size;
    int calls;
  };
  const MlpSize sample{8, 16, 3}, large{128, 512, 8};
  const std::vector<Case> cases = {
      {"samples/mlir/scan_mlp.mlir 8x16 L3", readFile(source + "/samples/mlir/scan_mlp.mlir"),
       readFile(source + "/bench/inputs/scan_mlp_unrolled.mlir"), sample, 2000},
      {"generated 128x512 L8", scanMlp(large), unrolledMlp(large), large, 5}};
  if (const char *dir = std::getenv("SHARDGEN_BENCH_DUMP")) // the generated programs
    for (const Case &c : cases) {
      const std::string name = std::string(dir) + "/mlp_" + str(c.size.batch) + "x" +
                               str(c.size.width) + "_l" + str(c.size.layers);
      std::ofstream(name + "_scan.mlir") << c.scan;
      std::ofstream(name + "_unrolled.mlir") << c.unrolled;
    }
  for (const Case &c : cases)
    for (const auto &[meshName, mesh] : std::vector<std::pair<std::string, driver::MeshSizes>>{
             {"1", {{"x", 1}, {"y", 1}}}, {"2x2", {{"x", 2}, {"y", 2}}}}) {
      const int calls = meshName == "1" ? c.calls : std::max(1, c.calls / 10);
      WholeRun scan = callSeconds(c.scan, mesh, c.size, repetitions, calls);
      WholeRun unrolled = callSeconds(c.unrolled, mesh, c.size, repetitions, calls);
      std::printf("%-34s %-6s %9.1f us %9.1f us %6.2fx%s\n", c.label.c_str(), meshName.c_str(),
                  scan.seconds * 1e6, unrolled.seconds * 1e6, scan.seconds / unrolled.seconds,
                  scan.result == unrolled.result ? "" : "  (results differ)");
    }
  std::printf("ratio = scan / unrolled (target <= 1.1x)\n");
  return 0;
}
