#pragma once
// `--max-memory SIZE` of eval and run: the memory a run may plan to use
// (driver/MemoryBudget.h refuses one that does not fit).

#include "compiler/cli/CommandLine.h"
#include "compiler/driver/MemoryBudget.h"

namespace shardgen::cli {

extern const OptionSpec kMaxMemoryOption;

/// `--max-memory` if given (a bad size is a UsageError), else the
/// machine's memory minus a 10% margin.
driver::MemoryLimit memoryLimit(const ParsedArgs &args);

} // namespace shardgen::cli
