#pragma once
// `--custom-calls LIB.so`: the one place custom_call targets come from.
// eval and run never look a target up in the process: each target must be a
// function LIB.so itself defines (not one of its dependencies, such as libc).

#include <memory>
#include <string>

#include "compiler/cli/CommandLine.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Graph.h"

namespace shardgen::cli {

/// A shared library of custom-call implementations, loaded with
/// dlopen(RTLD_NOW | RTLD_LOCAL) from exactly the given file (a name without
/// '/' is in the working directory, never searched for). Unloaded with the
/// object: keep it alive while code may call its functions.
class CustomCallLibrary {
public:
  /// Throws InputError naming `path` when the file cannot be loaded.
  explicit CustomCallLibrary(std::string path);
  ~CustomCallLibrary();
  CustomCallLibrary(const CustomCallLibrary &) = delete;
  CustomCallLibrary &operator=(const CustomCallLibrary &) = delete;

  /// The function the library itself defines under `name`; else throws
  /// GraphError at `pointer` saying why (absent, only in a dependency, not a
  /// function).
  shardgen_custom_call_fn function(const std::string &name, const std::string &pointer) const;

private:
  std::string path_;
  void *handle_ = nullptr;
};

/// The functions of every custom_call target in `graph` (bodies included),
/// from `library`; null `library` (no --custom-calls) is allowed only for a
/// graph without custom_call. Throws GraphError at the first op's
/// call_target_name that has no function.
CustomCallFunctions customCallFunctions(const Graph &graph, const CustomCallLibrary *library);

/// The option spec of --custom-calls, shared by eval and run.
extern const OptionSpec kCustomCallsOption;

/// The --custom-calls library, or null when the option is absent.
std::unique_ptr<CustomCallLibrary> customCallLibraryFromArgs(const ParsedArgs &args);

/// Interpreter options whose resolver knows exactly `functions`.
EvalOptions evalOptionsWith(const CustomCallFunctions &functions);

} // namespace shardgen::cli
