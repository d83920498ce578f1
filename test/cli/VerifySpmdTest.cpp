// --verify-spmd on run and compile: the samples' programs are proven
// coherent before code generation, and the tool says so. (Incoherent
// programs cannot come from a graph; test/partition/SpmdCoherenceTest.cpp
// breaks programs on purpose.)

#include <doctest/doctest.h>

#include <filesystem>

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
