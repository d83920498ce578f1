#pragma once
// The --verify-spmd option of the commands that partition (run, compile).

#include <string>

#include "compiler/cli/CommandLine.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::cli {

extern const OptionSpec kVerifySpmdOption;

/// With --verify-spmd: proves the program's collectives coherent (throws
/// SpmdCoherenceError, exit 4, if not) and notes it on stderr.
void verifySpmdIfAsked(const ParsedArgs &args, const std::string &graphPath,
                       const SpmdProgram &program);

} // namespace shardgen::cli
