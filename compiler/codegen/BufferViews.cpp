#include "compiler/codegen/BufferViews.h"

#include <algorithm>

#include "compiler/codegen/InputBinding.h"

namespace shardgen::codegen {
namespace {

/// Whether every device's piece of `out` is one contiguous range of its
/// piece of `in` (a slice of whole leading rows).
bool contiguousOnEveryDevice(const SpmdProgram &program, SpmdValueId in, SpmdValueId out) {
  const ShardLayout &from = program.layout(in), &to = program.layout(out);
  for (int64_t d = 0; d < program.mesh.numDevices(); ++d)
    if (!isContiguousPiece(from.extentsOf(d), to.extentsOf(d)))
      return false;
  return true;
}

} // namespace

bool isInvariantCarry(const SpmdStep &loop, size_t i) {
  return loop.kind == StepKind::Loop && loop.blocks.size() == 2 && i < loop.carried.size() &&
         i < loop.blocks[1].results.size() && loop.blocks[1].results[i] == loop.carried[i];
}

std::optional<ViewOf> viewOf(const SpmdProgram &program, const SpmdStep &step, size_t i) {
  if (i >= step.outputs.size())
    return std::nullopt;
  if (step.kind == StepKind::Alias)
    return i < step.inputs.size() ? std::optional(ViewOf{step.inputs[i], true}) : std::nullopt;
  if (step.kind == StepKind::Loop)
    return isInvariantCarry(step, i) ? std::optional(ViewOf{step.inputs[i], true}) : std::nullopt;
  if (step.kind != StepKind::Compute || !step.op || step.inputs.empty())
    return std::nullopt;
  const OpKind kind = step.op->kind;
  if (kind == OpKind::ShardingConstraint || kind == OpKind::Distribute ||
      kind == OpKind::PropagationBarrier || kind == OpKind::OptimizationBarrier)
    return i < step.inputs.size() ? std::optional(ViewOf{step.inputs[i], true}) : std::nullopt;
  // A distributed value's pieces are chunks (ChunkEmitter.cpp): copied.
  if (program.layout(step.inputs[0]).isDistributed() ||
      program.layout(step.outputs[0]).isDistributed())
    return std::nullopt;
  if (kind == OpKind::Reshape)
    return ViewOf{step.inputs[0], true};
  bool unitStrides = kind == OpKind::DynamicSlice;
  if (kind == OpKind::Slice) {
    const std::vector<int64_t> &strides = step.op->attr<SliceAttrs>().strides;
    unitStrides = std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s == 1; });
  }
  if (unitStrides && contiguousOnEveryDevice(program, step.inputs[0], step.outputs[0]))
    return ViewOf{step.inputs[0], false};
  return std::nullopt; // every other op writes its outputs
}

} // namespace shardgen::codegen
