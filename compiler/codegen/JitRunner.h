#pragma once
// Running a generated program in this process: its source is compiled by
// the in-process JIT (compiler/jit) with the kernel library and the
// runtime's device header as virtual files, and its devices run on the
// runtime's threads backend. The runtime's symbols resolve from this
// process.

#include <memory>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/ir/Literal.h"
#include "compiler/jit/JitCompiler.h"
#include "runtime/include/shardgen/launch.h"

namespace shardgen {

/// JitOptions that make the embedded kernel library and runtime headers
/// includable ("kernels/kernels.h", "shardgen/runtime.h").
JitOptions generatedCodeJitOptions();

class CompiledProgram {
public:
  /// Compiles `generated` (made from `program`, which must outlive this).
  /// Throws JitError when the generated code does not compile.
  CompiledProgram(const SpmdProgram &program, const GeneratedProgram &generated,
                  const JitOptions &options = generatedCodeJitOptions());

  /// Runs on whole tensors: one Literal per program input, of its global
  /// type; returns the outputs. Rethrows a device's exception (RunTimeout
  /// when `options` sets a timeout the run exceeds).
  std::vector<Literal> run(const std::vector<Literal> &inputs,
                           const runtime::LaunchOptions &options = {}) const;

  const JitModule &module() const { return *module_; }

private:
  const SpmdProgram &program_;
  std::unique_ptr<JitModule> module_;
  using Entry = void(const void *device, const void *const *inputs, void *const *outputs,
                     int32_t globalTensors);
  Entry *entry_ = nullptr;
};

} // namespace shardgen
