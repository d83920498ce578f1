#pragma once
// A custom-call library (`--custom-calls LIB.so`, the Python module's
// custom_calls="LIB.so"): with functions the user registers, the only place
// custom_call targets come from. Nothing is ever looked up in the process:
// each target must be a function LIB.so itself defines (not one of its
// dependencies, such as libc).

#include <memory>
#include <string>

#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Graph.h"

namespace shardgen::driver {

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

/// The functions of every custom_call target in `graph` (bodies included):
/// those of `registered` first, then of `library` (may be null). Throws
/// GraphError at the first op's call_target_name that has no function,
/// ending with `howToGiveOne` when no library was given ("pass
/// --custom-calls LIB.so, a shared library that defines it").
CustomCallFunctions customCallFunctions(const Graph &graph, const CustomCallLibrary *library,
                                        const CustomCallFunctions &registered,
                                        const std::string &howToGiveOne);

/// Interpreter options whose resolver knows exactly `functions`.
EvalOptions evalOptionsWith(const CustomCallFunctions &functions);

} // namespace shardgen::driver
