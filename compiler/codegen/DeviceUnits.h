#pragma once
// Splitting the device code into functions and files of bounded size. Every
// function of the device program that runs a list of statements (runSteps,
// scatterInputs, ...) is cut into parts of at most CodeSplit::statementsPerPart
// statements; a part runs its kernels from a constant table (kernel, buffer
// indices, traced op) in a loop. A large program's parts go to several
// translation units, which compile in parallel (JitRunner) and cache one by
// one. Each file defines the kernels and constants its statements use.
// Internal to compiler/codegen.

#include <string>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/KernelTable.h"

namespace shardgen::codegen {

/// A function made of statements: `void name(parameters)`, whose parts are
/// called with `arguments` (its parameters' names) and whose kernels get
/// `kernelArguments` before their buffer indices (KernelTable.h).
struct Routine {
  std::string name;
  std::string parameters;
  std::string arguments;
  KernelCaller caller = KernelCaller::Device;
  std::string kernelArguments;
  std::vector<Statement> statements;
};

/// The text of one translation unit's definitions.
struct UnitText {
  std::string constants;
  std::string kernels;
  std::string parts;
};

struct SplitCode {
  /// Per routine, in order: its body in the main file (its statements, or
  /// the calls of its parts).
  std::vector<std::string> bodies;
  UnitText main;
  /// With more files: declarations of the parts they define, in the main file.
  std::string partDeclarations;
  /// The other files, none for a small program.
  std::vector<UnitText> units;
};

/// Splits `routines`; parts in other files are in namespace `partsNamespace`.
SplitCode splitDeviceCode(const std::vector<Routine> &routines, const KernelTable &kernels,
                          const std::vector<EmitterContext::Constant> &constants,
                          const CodeSplit &limits, const std::string &partsNamespace);

} // namespace shardgen::codegen
