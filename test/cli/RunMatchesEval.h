#pragma once
// The tool-level check of a sharded program: what `shardgen run` computes
// on the graph's mesh equals what `shardgen eval` (the reference
// interpreter) computes, file for file.

#include <string>

#include <doctest/doctest.h>

#include "test/cli/ToolRunner.h"

namespace shardgen::test {

/// `shardgen eval` and `run --check --verify-spmd` of `graph` (the quoted
/// graph path and its `--inputs`), writing into WORK/eval and WORK/run:
/// both succeed, run's check passes (within its bound), and with
/// `sameBits` each of the `outputs` .npy files is the same byte for byte
/// (not where a sum runs over a sharded dim: its order is the devices').
inline void checkRunMatchesEval(const std::string &work, const std::string &graph, int outputs,
                                bool sameBits = true) {
  ToolResult eval = runShardgen("eval " + graph + " -o '" + work + "/eval'");
  INFO(eval.err);
  REQUIRE(eval.exitCode == 0);
  ToolResult run = runShardgen("run " + graph + " --check --verify-spmd -o '" + work + "/run'");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(contains(run.err, "check passed: " + std::to_string(outputs) + " outputs agree"));
  for (int i = 0; sameBits && i < outputs; ++i) {
    const std::string file = "/out" + std::to_string(i) + ".npy";
    CHECK(readFile(work + "/eval" + file) == readFile(work + "/run" + file));
  }
}

} // namespace shardgen::test
