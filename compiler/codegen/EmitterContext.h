#pragma once
// Shared state of one program's emission: the program, the constants
// section, the step code, and helpers that name buffers and branch per
// device. Internal to compiler/codegen.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compiler/codegen/CodeWriter.h"
#include "compiler/codegen/InputBinding.h"
#include "compiler/codegen/StridedWalk.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

class EmitterContext {
public:
  explicit EmitterContext(const SpmdProgram &program) : program(program) {}

  const SpmdProgram &program;
  /// A file-scope constant: its name and its definition.
  struct Constant {
    std::string name;
    std::string definition;
  };
  /// Every constant defined so far, in order (constant() defines them).
  std::vector<Constant> constants;
  /// The constants named since the last takeUsedConstants() (by one step).
  std::vector<size_t> usedConstants;
  /// Prototypes of custom_call targets, at global scope (C linkage).
  std::string customCallDeclarations;
  CodeWriter steps; // the code of the step being emitted
  /// The inputs read in place (a dot reads some with a row stride).
  InputBinding binding;
  int64_t nextConstant = 0;

  int64_t numDevices() const { return program.mesh.numDevices(); }
  const ShardLayout &layout(SpmdValueId id) const { return program.layout(id); }
  /// The local shape of value `id` on `device`.
  Shape localShape(SpmdValueId id, int64_t device) const { return layout(id).extentsOf(device); }
  ElementType elementType(SpmdValueId id) const { return layout(id).globalType.elementType; }
  /// "values[3]": the buffer of value `id`.
  static std::string buffer(SpmdValueId id) { return "values[" + std::to_string(id) + "]"; }

  /// Writes per-device code: `codeFor(d)` runs for one device of each class
  /// of devices with equal `keyOf(d)` (a key that determines the code, such
  /// as pieceKey()), so the work and the code grow with the distinct
  /// classes, not the devices. Devices whose code is equal share one branch,
  /// selected by coordinate ranges; the code is emitted once when all agree.
  void writePerDevice(CodeWriter &out,
                      const std::function<void(int64_t, std::vector<int64_t> &)> &keyOf,
                      const std::function<std::string(int64_t)> &codeFor) const;
  void addPerDevice(const std::function<void(int64_t, std::vector<int64_t> &)> &keyOf,
                    const std::function<std::string(int64_t)> &codeFor) {
    writePerDevice(steps, keyOf, codeFor);
  }
  /// Writes code that depends on the device only through the piece shapes of
  /// `ids`: `codeFor(d)` runs once per distinct combination of their dims'
  /// chunk kinds (full, short, empty), and the branches test the shard
  /// indices, so the code does not grow with the devices either.
  void writePerPieceShape(CodeWriter &out, const std::vector<SpmdValueId> &ids,
                          const std::function<std::string(int64_t)> &codeFor) const;
  void addPerPieceShape(const std::vector<SpmdValueId> &ids,
                        const std::function<std::string(int64_t)> &codeFor) {
    writePerPieceShape(steps, ids, codeFor);
  }
  /// The key of `ids`' piece shapes on `device` (and their offsets, for code
  /// that embeds them), appended to `key`.
  void pieceKey(const std::vector<SpmdValueId> &ids, int64_t device, std::vector<int64_t> &key,
                bool withOffsets = false) const;
  /// Adds a fresh file-scope name with the prefix ("kConst" -> "kConst4").
  std::string freshName(const std::string &prefix);
  /// The name of the file-scope constant `head NAME tail` ("const int32_t ",
  /// "[] = {0, 1};"), defined once per distinct text so that equal steps
  /// name equal constants (and share one kernel, KernelTable.h).
  std::string constant(const std::string &prefix, const std::string &head, const std::string &tail);
  /// usedConstants, emptied.
  std::vector<size_t> takeUsedConstants();
  /// "rt::AxisList{kAxes3, 2}" for the named mesh axes, their indices a new
  /// file-scope array; a name that is no axis of the mesh is a GraphError.
  std::string axisList(const std::vector<std::string> &axes);

private:
  std::map<std::string, size_t> constantByText_;
};

/// "rt::DimView{outer, size, inner}": `shape` seen as [outer, shape[dim], inner].
std::string dimView(const Shape &shape, int64_t dim);

// The two halves of step emission (ComputeEmitter.cpp, TransferEmitter.cpp).
void emitCompute(EmitterContext &context, const SpmdStep &step);
void emitTransfer(EmitterContext &context, const SpmdStep &step);
/// A dot_general whose product is never stored: `epilogue`, a lambda
/// (int64_t i, int64_t c, S product) -> S of the product's element i and its
/// column c, runs on each element, and `result`'s buffer receives it.
void emitDotGeneralEpilogue(EmitterContext &context, const SpmdStep &dot, SpmdValueId result,
                            const std::string &epilogue);

/// A loop or branch (StructuredEmitter.cpp): a C++ loop or switch around
/// its blocks' steps, emitted one by one.
void emitStructured(EmitterContext &context, const SpmdStep &step);

// Distributed values (ChunkEmitter.cpp): compute steps chunk by chunk, the
// Redistribute transfer, and copies of distributed inputs and outputs.
void emitChunkwiseCompute(EmitterContext &context, const SpmdStep &step);
void emitRedistribute(EmitterContext &context, const SpmdStep &step);
/// Scatter (global -> buffer) or gather (buffer -> global, each chunk by its
/// one holder) of distributed value `id` at `global` (a byte pointer).
std::string distributedGlobalCopy(EmitterContext &context, SpmdValueId id,
                                  const std::string &global, bool scatter);
/// Per-device call style: copies device `position`'s [k, shard...] buffer
/// in (padding zeroed, never read) or out whole.
std::string distributedShardCopy(EmitterContext &context, SpmdValueId id, const std::string &other,
                                 bool in);

/// One elementwise kernel call (unary, binary, compare, select, clamp,
/// convert) over `count` contiguous elements; `ins` and `out` are byte
/// pointer expressions; a `broadcast` operand is a scalar read at 0.
struct ElementwiseCall {
  const Op *op = nullptr;
  std::vector<ElementType> inTypes;
  std::vector<bool> broadcast;
  ElementType outType = ElementType::F32;
  int64_t count = 0;
  std::vector<std::string> ins;
  std::string out;
};
std::string elementwiseKernelCall(const ElementwiseCall &call);

} // namespace shardgen::codegen
