// --verify-spmd on run and compile: the samples' programs are proven
// coherent before code generation, and the tool says so. (Incoherent
// programs cannot come from a graph; test/partition/SpmdCoherenceTest.cpp
// breaks programs on purpose.)

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

TEST_CASE("run --verify-spmd proves the MLP's one all_reduce coherent and runs it") {
  ToolResult result = runShardgen("run " + kSamples + "mlp.json --verify-spmd --check");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.err.find(kSamples + "mlp.json: SPMD coherence verified: 1 collectives on 4 "
                                   "devices\n") != std::string::npos);
  CHECK(result.err.find("check passed") != std::string::npos);
}

TEST_CASE("compile --verify-spmd proves the manual computation's collectives coherent") {
  std::string dir = makeTempDir();
  ToolResult result =
      runShardgen("compile " + kSamples + "dp_grad_step.json --verify-spmd -o '" + dir + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.err.find("dp_grad_step.json: SPMD coherence verified: 2 collectives on 4 "
                        "devices\n") != std::string::npos);
  CHECK(std::filesystem::exists(dir + "/dp_grad_step.h"));
}

TEST_CASE("run --verify-spmd counts the collectives inside a loop; an endless loop times out") {
  // The scanned MLP gathers its activations in the loop's body (once per
  // iteration, counted once) and its output after the loop.
  ToolResult result = runShardgen("run " + kSamples + "mlir/scan_mlp.mlir --verify-spmd --check");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.err.find("scan_mlp.mlir: SPMD coherence verified: 2 collectives on 4 devices\n") !=
        std::string::npos);
  CHECK(result.err.find("check passed") != std::string::npos);

  // A loop that never ends is the program's, but --timeout stops it and
  // names the op every device is in.
  const std::string dir = makeTempDir();
  const std::string path = dir + "/endless.mlir";
  std::ofstream(path) << R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x4xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<8x4xf32>
    stablehlo.return %1 : tensor<8x4xf32>
  }
  func.return %0 : tensor<8x4xf32>
}
)";
  result = runShardgen("run '" + path + "' --timeout 1");
  INFO(result.err);
  CHECK(result.exitCode == 1);
  CHECK(result.err.find("the run did not finish within the timeout of 1 s: devices 0-3 are "
                        "computing (after /ops/0)") != std::string::npos);
}
