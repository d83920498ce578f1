#pragma once
// What the round-three hostile tests share: a file of hostile text, and the
// check of a command's outcome under the harness's time limit.

#include <doctest/doctest.h>

#include <string>

#include "test/cli/ToolRunner.h"

namespace shardgen::test {

/// Writes `text` to a fresh file named `name`; returns its path.
inline std::string hostileFile(const std::string &name, const std::string &text) {
  std::string path = makeTempDir() + "/" + name;
  writeFile(path, text);
  return path;
}

/// The command ended in time, with `exitCode` and `message` on stderr.
inline void checkResult(const ToolResult &result, int exitCode, const std::string &message = "") {
  INFO(result.err.substr(0, 2000));
  REQUIRE_FALSE(result.timedOut);
  CHECK(result.exitCode == exitCode);
  CHECK(result.err.find(message) != std::string::npos);
}

} // namespace shardgen::test
