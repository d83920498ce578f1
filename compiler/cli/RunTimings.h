#pragma once
// `run --repeat N`: run the compiled program N times and report, on stderr,
// the time of each stage (read, verify, propagate, partition, generate, JIT)
// and of one call (min and median over the N calls), so a user can time a
// sharding choice or a mesh (--mesh) against another.

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/cli/CommandLine.h"

namespace shardgen::cli {

extern const OptionSpec kRepeatOption;

/// --repeat N: an integer in [1, 1000000]; 1 without the option.
int64_t repeatOption(const ParsedArgs &args);

/// Calls `call` n times; the milliseconds of each call.
template <typename Call> std::vector<double> timeCalls(int64_t n, Call &&call) {
  std::vector<double> ms;
  for (int64_t i = 0; i < n; ++i) {
    auto start = std::chrono::steady_clock::now();
    call();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  return ms;
}

/// The report: one line per stage, then the call times.
std::string formatRunTimings(const std::string &graphName,
                             const std::vector<std::pair<std::string, double>> &stageMs,
                             std::vector<double> callMs);

} // namespace shardgen::cli
