#pragma once
// `run --repeat N`: run the compiled program N times and report, on stderr,
// the time of each stage (read, verify, propagate, partition, generate, JIT)
// and of one call (min and median over the N calls), so a user can time a
// sharding choice or a mesh (--mesh) against another.

#include <string>
#include <utility>
#include <vector>

#include "compiler/cli/CommandLine.h"

namespace shardgen::cli {

extern const OptionSpec kRepeatOption;

/// --repeat N: an integer in [1, 1000000]; 1 without the option.
int64_t repeatOption(const ParsedArgs &args);

/// The report: one line per stage, then the call times.
std::string formatRunTimings(const std::string &graphName,
                             const std::vector<std::pair<std::string, double>> &stageMs,
                             std::vector<double> callMs);

} // namespace shardgen::cli
