#pragma once
// A subcommand of the shardgen tool, and the error conventions shared by all:
// exit 0 on success, 1 for an invalid graph or input data, 2 for a bad command
// line, 3 when `--check` finds a sharded result that differs, 4 for a bug in
// shardgen (never for bad input).

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::cli {

enum ExitCode {
  kSuccess = 0,
  kInvalidInput = 1,
  kUsage = 2,
  kCheckFailed = 3,
  kInternalError = 4, // a bug in shardgen (InternalError), never bad input
};

/// The exit codes, as every --help lists them.
inline constexpr const char *kExitStatusHelp =
    "exit status:\n"
    "  0  success\n"
    "  1  invalid graph or input data, or an output that cannot be written\n"
    "     (FILE:JSON-POINTER: error: MESSAGE on stderr, FILE:LINE:COLUMN for MLIR\n"
    "     text; no output is left behind)\n"
    "  2  bad command line\n"
    "  3  run --check found a sharded result that differs from the reference\n"
    "  4  internal error: a bug in shardgen (please report it with the input)\n";

/// Bad input data that is not part of the graph (an .npy file, an output
/// folder): reported as "WHERE: error: MESSAGE", exit 1.
class InputError : public std::runtime_error {
public:
  InputError(std::string where, const std::string &message)
      : std::runtime_error(boundedMessage(message)), where_(std::move(where)) {}
  const std::string &where() const { return where_; }

private:
  std::string where_;
};

struct Command {
  CommandSpec spec;
  std::function<int(const ParsedArgs &)> run;
};

/// The tool's arguments after "shardgen" (for a command that starts the
/// tool again, as `run --backend mpi` does under mpirun).
const std::vector<std::string> &toolArguments();

const Command &checkCommand();
const Command &evalCommand();
const Command &runCommand();
const Command &compileCommand();
const Command &propagateCommand();
const Command &explainCommand();
const Command &showCommand();
const Command &partitionCommand();
const Command &importCommand();
const Command &exportCommand();

} // namespace shardgen::cli
