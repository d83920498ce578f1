#pragma once
// Runs a program with no shell in between: stdin from /dev/null, stdout and
// stderr into files.

#include <string>
#include <vector>

namespace shardgen::lit {

/// The exit status, or 128 + the signal that ended the process; -1 when it
/// could not be started.
int runProgram(const std::vector<std::string> &argv, const std::string &stdoutFile,
               const std::string &stderrFile);

} // namespace shardgen::lit
