#pragma once
// The passes by name, and what a caller attaches around them (as MLIR's
// PassInstrumentation). Light on purpose: the CLI's top level catches
// Stopped without seeing the stages.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardgen::pipeline {

/// The passes, in the order they run.
enum class Pass { Read, Verify, Propagate, Partition, Generate, Jit };

/// How a pass is named, everywhere: the one list (Pass.cpp).
struct PassInfo {
  Pass pass;
  /// In timings (`run --repeat`): "read", "verify", ..., "generate", "JIT".
  std::string_view name;
  /// On the progress line: "reading", ..., "compiling (JIT)".
  std::string_view doing;
  /// What `--dump-after` calls the program after it ("codegen" for
  /// generate); empty when the pass has no dump.
  std::string_view dumpName;
};

/// Every pass, in order.
std::span<const PassInfo> allPasses();
const PassInfo &passInfo(Pass pass);
/// passInfo(pass).name.
std::string_view passName(Pass pass);
/// The pass whose dump is called `dumpName`, if any.
std::optional<Pass> passOfDump(std::string_view dumpName);

/// What a caller attaches around the passes.
class PassObserver {
public:
  virtual ~PassObserver() = default;
  /// Runs `work` (the pass) exactly once: progress, error context go here.
  virtual void runPass(Pass pass, const std::function<void()> &work);
  /// What a pass found that is not an error (propagation's warnings).
  virtual void warn(Pass pass, const std::vector<std::string> &warnings);
  /// After a pass with a dump: `dump` renders the program as it stands (the
  /// graph as JSON, the per-device program as text, the C++). True stops
  /// the pipeline there: the pass throws Stopped.
  virtual bool afterPass(Pass pass, const std::function<std::string()> &dump);
};

/// Thrown by the pass after which the observer stopped the pipeline: no
/// later pass runs. Not an error (no std::exception): the caller that asked
/// for the stop catches it (the CLI: `--dump-after STAGE` ends the command
/// there, exit 0).
struct Stopped {
  Pass after;
};

} // namespace shardgen::pipeline
