#pragma once
// Runs the shardgen binary as a user would and captures what it prints.

#include <string>

namespace shardgen::test {

struct ToolResult {
  int exitCode = -1;
  std::string out, err;
};

/// Runs `shardgen ARGS` (ARGS already shell-quoted), optionally feeding stdin,
/// in the working directory `workDir` (the test's own when empty).
ToolResult runShardgen(const std::string &args, const std::string &stdinText = "",
                       const std::string &workDir = "");

/// A fresh empty folder under the system temp dir, removed at exit.
std::string makeTempDir();

std::string readFile(const std::string &path);
void writeFile(const std::string &path, const std::string &text);

} // namespace shardgen::test
