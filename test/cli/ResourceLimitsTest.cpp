// Big input never blows up the machine: eval and run refuse graphs whose
// tensors cannot fit before allocating anything (exit 1, naming the tensor),
// sizes that do not fit in 64 bits are refused by every command, run refuses
// meshes its threads backend cannot run, and --timeout is parsed (run's and
// eval's).

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

namespace {

/// A graph on a 2x2 mesh: "a" (tensor<ROWSx1xf32>) is broadcast to "big"
/// (tensor<ROWSxCOLUMNSxf32>) at /ops/0, whose rows are summed.
std::string broadcastGraph(const std::string &rows, const std::string &columns) {
  std::string input = rows + "x1", result = rows + "x" + columns;
  return R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<)" +
         input + R"(xf32>", "sharding": "<@mesh, [{x}, {}]>"}],
    "ops": [{"op": "broadcast_in_dim", "operands": ["a"], "result": "big",
             "type": "tensor<)" +
         result + R"(xf32>", "broadcast_dimensions": [0, 1]},
            {"op": "constant", "result": "zero", "type": "tensor<f32>", "value": 0.0},
            {"op": "reduce", "operands": ["big", "zero"], "result": "out", "dimensions": [1],
             "reducer": "add"}],
    "outputs": [{"value": "out"}]})";
}

std::string writeGraph(const std::string &text) {
  std::string path = makeTempDir() + "/graph.json";
  writeFile(path, text);
  return path;
}

} // namespace

TEST_CASE("eval refuses a graph over --max-memory, naming the tensor, before writing anything") {
  // 1024x1024 f32 is 4 MiB.
  std::string path = writeGraph(broadcastGraph("1024", "1024"));
  std::string out = makeTempDir() + "/out";
  ToolResult result = runShardgen("eval '" + path + "' --max-memory 1M -o '" + out + "'");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err ==
        path + ":/ops/0: error: tensor \"big\" (tensor<1024x1024xf32>, 4 MiB) does not "
               "fit in memory: eval needs at least 4.01 MiB, more than the 1 MiB allowed "
               "(--max-memory 1M)\n");
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("run refuses a graph over --max-memory from the partitioned program's peak") {
  std::string path = writeGraph(broadcastGraph("1024", "1024"));
  ToolResult result = runShardgen("run '" + path + "' --max-memory 1M");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find(path + ":/ops/0: error: tensor \"big\" (tensor<1024x1024xf32>, ") == 0);
  CHECK(
      result.err.find(" over the 4 devices' pieces) does not fit in memory: run needs at least ") !=
      std::string::npos);
  CHECK(result.err.find("more than the 1 MiB allowed (--max-memory 1M)\n") != std::string::npos);
}

TEST_CASE("a 2^40-element tensor is refused by eval and run against the machine's memory") {
  // 2^20 x 2^20 f32 = 4 TiB, made by an op from a small input.
  std::string path = writeGraph(broadcastGraph("1048576", "1048576"));
  CHECK(runShardgen("check '" + path + "'").exitCode == 0);
  for (const std::string command : {"eval", "run"}) {
    INFO(command);
    ToolResult result = runShardgen(command + " '" + path + "'");
    CHECK(result.exitCode == 1);
    CHECK(result.out.empty());
    CHECK(result.err.find(path + ":/ops/0: error: tensor \"big\" (tensor<1048576x1048576xf32>, ") ==
          0);
    CHECK(result.err.find("does not fit in memory: " + command + " needs at least ") !=
          std::string::npos);
    CHECK(result.err.find("of memory)\n") != std::string::npos); // "90% of this machine's ..."
  }
}

TEST_CASE("compile needs no memory for tensors: a 2^40-element graph compiles") {
  std::string path = writeGraph(broadcastGraph("1048576", "1048576"));
  std::string out = makeTempDir() + "/gen";
  ToolResult result = runShardgen("compile '" + path + "' -o '" + out + "'");
  CHECK(result.exitCode == 0);
  CHECK(std::filesystem::exists(out + "/program.cpp"));
}

TEST_CASE("a tensor whose size in bytes overflows 64 bits is refused by every command") {
  // The outer product of two 2^32-element vectors: 2^64 elements.
  std::string path = writeGraph(R"({"format": "shardgen-graph", "version": 1,
    "inputs": [{"name": "a", "type": "tensor<4294967296xf32>"},
               {"name": "b", "type": "tensor<4294967296xf32>"}],
    "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "c"}],
    "outputs": [{"value": "c"}]})");
  std::string expected = path + ":/ops/0: error: tensor \"c\" of type "
                                "tensor<4294967296x4294967296xf32> is too large: its size in bytes "
                                "exceeds 2^63 - 1\n";
  for (const std::string command : {"check", "eval", "run", "compile"}) {
    INFO(command);
    std::string output = command == "compile" ? " -o '" + makeTempDir() + "/gen'" : "";
    ToolResult result = runShardgen(command + " '" + path + "'" + output);
    CHECK(result.exitCode == 1);
    CHECK(result.out.empty());
    CHECK(result.err == expected);
  }
}

TEST_CASE("--max-memory takes sizes with binary units; anything else is a usage error") {
  std::string mlp = "'" + kSamples + "mlp.json'";
  CHECK(runShardgen("eval " + mlp + " --max-memory 4G -o '" + makeTempDir() + "/o'").exitCode == 0);
  CHECK(runShardgen("eval " + mlp + " --max-memory 1.5GiB -o '" + makeTempDir() + "/o'").exitCode ==
        0);
  for (const char *bad : {"12X", "G", "-1M", "0", "1..5G", "99999999T"}) {
    INFO(bad);
    ToolResult result = runShardgen("run " + mlp + " --max-memory " + bad);
    CHECK(result.exitCode == 2);
    CHECK(result.err.find("shardgen run: error: --max-memory ") == 0);
  }
}

TEST_CASE("run refuses a mesh beyond the threads backend's limit before compiling") {
  std::string path = writeGraph(R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "big", "axes": [{"name": "x", "size": 32}, {"name": "y", "size": 32}]}],
    "inputs": [{"name": "a", "type": "tensor<64x64xf32>", "sharding": "<@big, [{x}, {y}]>"}],
    "ops": [{"op": "negate", "operands": ["a"], "result": "b"}],
    "outputs": [{"value": "b"}]})");
  ToolResult result = runShardgen("run '" + path + "'");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  const std::string refused = path + ":/meshes/0: error: mesh @big has 1024 devices, but run "
                                     "runs at most 512 threads per process (one per device); use "
                                     "--backend mpi --ranks N or 'shardgen compile' to build the "
                                     "program\n";
  CHECK(result.err == refused);
  // One MPI rank would run all 1024 as its threads.
  result = runShardgen("run '" + path + "' --backend mpi --ranks 1");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err == refused);
  // compile has no such limit.
  CHECK(runShardgen("compile '" + path + "' -o '" + makeTempDir() + "/gen'").exitCode == 0);
}

TEST_CASE("run --timeout takes seconds; a run within it is unaffected") {
  std::string mlp = "'" + kSamples + "mlp.json'";
  ToolResult ok = runShardgen("run " + mlp + " --check --timeout 600");
  CHECK(ok.exitCode == 0);
  CHECK(ok.err.find("check passed") != std::string::npos);
  for (const char *bad : {"abc", "-1", "5s"}) {
    INFO(bad);
    ToolResult result = runShardgen("run " + mlp + " --timeout " + bad);
    CHECK(result.exitCode == 2);
    CHECK(result.err.find("shardgen run: error: --timeout takes a number of seconds, not '") == 0);
  }
}

TEST_CASE("run --timeout ends a stuck run, naming the device and the collective it waits in") {
  // Test hook (docs/decisions.md): device 1 stalls before its first
  // collective, the all_reduce of /ops/4 over model, so device 0, its peer,
  // waits there forever; devices 2 and 3 finish. Bounded by the ctest
  // TIMEOUT, not timed.
  ::setenv("SHARDGEN_TEST_STALL_DEVICE", "1", 1);
  ToolResult result = runShardgen("run '" + kSamples + "mlp.json' --timeout 1");
  ::unsetenv("SHARDGEN_TEST_STALL_DEVICE");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "note: no --inputs given; using pseudo-random inputs (seed 0)\n" + kSamples +
                          "mlp.json: error: the run did not finish within the timeout of 1 s: "
                          "device 0 is waiting in all_reduce for /ops/4; device 1 is computing "
                          "(after /ops/4); devices 2-3 are finished\n");
}

TEST_CASE("eval --timeout stops a loop that never ends, naming the op it was about to evaluate") {
  // The interpreter reads the clock before each op and loop iteration:
  // whichever op of the loop it stops at, the error names it (its JSON
  // pointer under the loop's; for MLIR text also its line). Bounded by the
  // ctest TIMEOUT, not timed.
  const std::string dir = makeTempDir();
  const std::string json = dir + "/endless.json";
  std::ofstream(json) << R"({"format": "shardgen-graph", "version": 1, "name": "endless",
 "inputs": [{"name": "x", "type": "tensor<4xf32>"}],
 "ops": [{"op": "while", "operands": ["x"], "results": ["y"],
   "cond": {"args": [{"name": "a", "type": "tensor<4xf32>"}],
            "ops": [{"op": "constant", "result": "t", "type": "tensor<i1>", "value": true}],
            "return": ["t"]},
   "body": {"args": [{"name": "b", "type": "tensor<4xf32>"}],
            "ops": [{"op": "negate", "operands": ["b"], "result": "n"}],
            "return": ["n"]}}],
 "outputs": [{"value": "y"}]})";
  ToolResult result = runShardgen("eval '" + json + "' --timeout 0.5");
  INFO(result.err);
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  const std::string stopped = "error: the evaluation did not finish within the timeout of 0.5 s: "
                              "it was about to evaluate ";
  const bool inLoop = result.err.find("endless.json:/ops/0: " + stopped + "\"while\" (/ops/0)\n") !=
                          std::string::npos ||
                      result.err.find("endless.json:/ops/0/cond/ops/0: " + stopped +
                                      "\"constant\" (/ops/0/cond/ops/0)\n") != std::string::npos ||
                      result.err.find("endless.json:/ops/0/body/ops/0: " + stopped +
                                      "\"negate\" (/ops/0/body/ops/0)\n") != std::string::npos;
  CHECK(inLoop);

  // The MLIR form: a line:col.
  const std::string mlir = dir + "/endless.mlir";
  std::ofstream(mlir) << R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
)";
  result = runShardgen("eval '" + mlir + "' --timeout 0.5");
  INFO(result.err);
  CHECK(result.exitCode == 1);
  CHECK((result.err.find("endless.mlir:2:3: " + stopped + "\"while\" (/ops/0)\n") !=
             std::string::npos ||
         result.err.find("endless.mlir:4:5: " + stopped + "\"constant\"") != std::string::npos ||
         result.err.find("endless.mlir:7:5: " + stopped + "\"negate\"") != std::string::npos));

  // Within the timeout nothing changes; a bad value is a usage error.
  ToolResult ok = runShardgen("eval '" + kSamples + "mlir/scan_mlp.mlir' --timeout 600");
  CHECK(ok.exitCode == 0);
  for (const char *bad : {"abc", "-1", "5s"}) {
    INFO(bad);
    result = runShardgen("eval '" + json + "' --timeout " + bad);
    CHECK(result.exitCode == 2);
    CHECK(result.err.find("shardgen eval: error: --timeout takes a number of seconds, not '") !=
          std::string::npos);
  }
}

TEST_CASE("--help documents --max-memory and --timeout") {
  CHECK(runShardgen("eval --help").out.find("--max-memory SIZE") != std::string::npos);
  ToolResult run = runShardgen("run --help");
  CHECK(run.out.find("--max-memory SIZE") != std::string::npos);
  CHECK(run.out.find("--timeout SECONDS") != std::string::npos);
  CHECK(runShardgen("eval --help").out.find("--timeout SECONDS") != std::string::npos);
}

TEST_CASE("an fft's working memory counts: a Bluestein transform of a small input is refused") {
  // 1000003 points (prime: Bluestein at 2^21) of complex<f32>: 7.6 MiB of
  // values, but hundreds of MiB of working memory in the interpreter
  // (complex long double, the plans) and about 150 MiB compiled.
  std::string path = makeTempDir() + "/fft.mlir";
  writeFile(path, R"(func.func @main() -> tensor<1000003xcomplex<f32>> {
  %x = stablehlo.constant dense<(1.0, 0.0)> : tensor<1000003xcomplex<f32>>
  %0 = stablehlo.fft %x, type = FFT, length = [1000003] : (tensor<1000003xcomplex<f32>>) -> tensor<1000003xcomplex<f32>>
  return %0 : tensor<1000003xcomplex<f32>>
}
)");
  for (const std::string command : {"eval", "run"}) {
    INFO(command);
    ToolResult result = runShardgen(command + " '" + path + "' --max-memory 64M");
    CHECK(result.exitCode == 1);
    CHECK(result.err.find("does not fit in memory: " + command + " needs at least ") !=
          std::string::npos);
  }
  // 4096 points, a power of two: a few hundred KiB, which fits.
  std::string small = makeTempDir() + "/small.mlir";
  writeFile(small, R"(func.func @main() -> tensor<4096xcomplex<f32>> {
  %x = stablehlo.constant dense<(1.0, 0.0)> : tensor<4096xcomplex<f32>>
  %0 = stablehlo.fft %x, type = FFT, length = [4096] : (tensor<4096xcomplex<f32>>) -> tensor<4096xcomplex<f32>>
  return %0 : tensor<4096xcomplex<f32>>
}
)");
  CHECK(runShardgen("eval '" + small + "' --max-memory 64M -o '" + makeTempDir() + "/out'")
            .exitCode == 0);
}
