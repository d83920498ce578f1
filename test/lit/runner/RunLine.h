#pragma once
// A RUN line as the runner executes it: `TOOL ARGS | FileCheck %s [ARGS]`.
//
// TOOL is `shardgen` (our own files: its arguments as they are, `%s` the
// case's input) or `sdy_opt` (Shardy's files), whose passes map onto the
// shardgen command that does the same:
//
//   -sdy-populate-op-sharding-rules      export %s --sharding-rules
//   -sdy-basic-propagate                 propagate %s --format mlir --strategy basic
//   -sdy-aggressive-propagate            ... --strategy aggressive (or its
//                                        propagation-strategy=NAME option)
//   -sdy-op-priority-propagate           ... --strategy op-priority
//   -sdy-user-priority-propagate         ... --strategy user-priority
//   -sdy-propagation-pipeline            ... --strategy user-priority
//   -sdy-add-data-flow-edges, -sdy-sink-data-flow-edges, -verify-diagnostics:
//                                        nothing (shardgen's edges are implicit)
//   -split-input-file                    the runner cuts the file at `// -----`
//
// Any other pass or pass option has no counterpart: the line is unsupported
// and its file's cases are skipped with that reason.

#include <string>
#include <vector>

namespace shardgen::lit {

struct RunCommand {
  /// shardgen's arguments; "%s" stands for the case's input file.
  std::vector<std::string> shardgenArgs;
  /// FileCheck's arguments after the check file ("%s" dropped).
  std::vector<std::string> fileCheckArgs;
  /// Check prefixes FileCheck looks for (a case without any is not checked).
  std::vector<std::string> checkPrefixes;
  bool splitInputFile = false;
  /// Non-empty: why the line cannot run (the file's cases are skipped).
  std::string unsupported;
};

RunCommand parseRunLine(const std::string &line);

/// Shell-like words: space separated, '...' and "..." quote.
std::vector<std::string> splitWords(const std::string &text);

} // namespace shardgen::lit
