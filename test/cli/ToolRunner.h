#pragma once
// Runs the shardgen binary as a user would and captures what it prints.

#include <string>

#include "test/support/TextFile.h"

namespace shardgen::test {

struct ToolResult {
  int exitCode = -1;
  std::string out, err;
  /// Killed at the time limit of runShardgenWithin (exitCode is then -1).
  bool timedOut = false;
};

/// The source tree's samples folder, with a trailing slash.
inline const std::string kSamples = std::string(SHARDGEN_SOURCE_DIR) + "/samples/";
/// samples/mlp.json, the graph most tool tests run.
inline const std::string kMlpSample = std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlp.json";

/// `text` contains `part`.
inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Runs `shardgen ARGS` (ARGS already shell-quoted), optionally feeding stdin,
/// in the working directory `workDir` (the test's own when empty).
ToolResult runShardgen(const std::string &args, const std::string &stdinText = "",
                       const std::string &workDir = "");

/// As runShardgen, killed (SIGKILL, with its children) after `seconds`: a
/// hang fails the test instead of holding the suite. The limit is the test
/// harness's, not a measurement: set it well above the normal time.
/// `prefix`: shell words before the command (e.g. "ulimit -v 2000000;").
ToolResult runShardgenWithin(int seconds, const std::string &args, const std::string &prefix = "",
                             const std::string &workDir = "");

/// A fresh empty folder under the system temp dir, removed at exit.
std::string makeTempDir();

using testing::readFile;
using testing::writeFile;

} // namespace shardgen::test
