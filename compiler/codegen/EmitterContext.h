#pragma once
// Shared state of one program's emission: the program, the constants
// section, the step code, and helpers that name buffers and branch per
// device. Internal to compiler/codegen.

#include <string>
#include <vector>

#include "compiler/codegen/StridedWalk.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

class EmitterContext {
public:
  explicit EmitterContext(const SpmdProgram &program) : program(program) {}

  const SpmdProgram &program;
  std::string constants; // file-scope definitions
  /// Prototypes of custom_call targets, at global scope (C linkage).
  std::string customCallDeclarations;
  std::string steps;     // body of runSteps
  int64_t nextConstant = 0;

  int64_t numDevices() const { return program.mesh.numDevices(); }
  const ShardLayout &layout(SpmdValueId id) const { return program.layout(id); }
  /// The local shape of value `id` on `device`.
  const Shape &localShape(SpmdValueId id, int64_t device) const {
    return layout(id).extents[device];
  }
  ElementType elementType(SpmdValueId id) const { return layout(id).globalType.elementType; }
  /// "values[3]": the buffer of value `id`.
  static std::string buffer(SpmdValueId id) { return "values[" + std::to_string(id) + "]"; }

  /// Appends `code` (one or more lines, no trailing newline needed) to the
  /// steps, indented by `indent` spaces.
  void addStep(const std::string &code, int indent = 2);
  /// Emits the per-device code: once when every device's code is the same,
  /// else one branch per distinct code, selected by coordinate ranges.
  void addPerDevice(const std::vector<std::string> &codePerDevice);
  /// Adds a fresh file-scope name with the prefix ("kConst" -> "kConst4").
  std::string freshName(const std::string &prefix);
};

/// `code` with every non-empty line indented by `indent` spaces.
std::string indented(const std::string &code, int indent);

/// "a, b, c".
std::string joinInts(const std::vector<int64_t> &values);

// The two halves of step emission (ComputeEmitter.cpp, TransferEmitter.cpp).
void emitCompute(EmitterContext &context, const SpmdStep &step);
void emitTransfer(EmitterContext &context, const SpmdStep &step);

} // namespace shardgen::codegen
