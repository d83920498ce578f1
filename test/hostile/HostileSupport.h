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

// GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer).
#if defined(__has_feature)
#define SHARDGEN_HAS_FEATURE(x) __has_feature(x)
#else
#define SHARDGEN_HAS_FEATURE(x) 0
#endif

/// True in a build under AddressSanitizer (several times slower: tests of
/// scale use smaller inputs there).
inline constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || SHARDGEN_HAS_FEATURE(address_sanitizer)
    true;
#else
    false;
#endif

/// Shell words that keep the command within 2 GiB: ulimit's address-space
/// limit, or, when the tool is built with AddressSanitizer (its shadow memory
/// reserves terabytes of address space, so `ulimit -v` stops it at start-up),
/// the sanitizer's own limits on one allocation and on resident memory.
inline std::string smallMemoryPrefix() {
  return kSanitized ? "export ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:max_allocation_size_mb=2048:"
                      "hard_rss_limit_mb=2048\";"
                    : "ulimit -v 2097152;";
}

/// The command ended in time, with `exitCode` and `message` on stderr.
inline void checkResult(const ToolResult &result, int exitCode, const std::string &message = "") {
  INFO(result.err.substr(0, 2000));
  REQUIRE_FALSE(result.timedOut);
  CHECK(result.exitCode == exitCode);
  CHECK(result.err.find(message) != std::string::npos);
}

} // namespace shardgen::test
