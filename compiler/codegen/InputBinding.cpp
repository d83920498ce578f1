#include "compiler/codegen/InputBinding.h"

#include "compiler/codegen/DotOperands.h"
#include "compiler/codegen/PieceIndexing.h"
#include "compiler/codegen/StridedWalk.h"

namespace shardgen::codegen {
namespace {

/// The row split at which every use of `input` reads it, when each is an
/// operand the dot kernel reads in place as rows (in its own order, in the
/// result's element type, not chunkwise); -1 when some use needs the value
/// dense (any other step, a nested block, a program output) or two dots
/// split it differently.
int64_t dotRowSplitOfUses(const SpmdProgram &program, SpmdValueId input) {
  for (size_t j = 0; j < program.outputs.size(); ++j)
    if (program.outputs[j] == input || program.gatheredOutput(j) == input)
      return -1;
  int64_t split = -1;
  for (const SpmdStep &step : program.steps) {
    bool nested = false;
    if (isStructured(step))
      forEachNestedValue(step, [&](SpmdValueId v) { nested = nested || v == input; });
    if (nested)
      return -1;
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      if (step.inputs[i] != input)
        continue;
      if (step.kind != StepKind::Compute || !step.op || step.op->kind != OpKind::DotGeneral)
        return -1;
      const SpmdValueId result = step.outputs.at(0);
      if (program.layout(result).isDistributed() ||
          program.layout(result).globalType.elementType !=
              program.layout(input).globalType.elementType)
        return -1;
      const auto &attrs = step.op->attr<DotGeneralAttrs>();
      const DotOperandOrder order = dotOperandOrder(attrs, program.layout(step.inputs[0]).rank(),
                                                    program.layout(step.inputs[1]).rank());
      if (!isIdentityOrder(i == 0 ? order.lhs : order.rhs))
        return -1;
      const int64_t rows = dotRowSplit(attrs, order, i);
      if (split >= 0 && rows != split)
        return -1;
      split = rows;
    }
  }
  return split;
}

} // namespace

bool isContiguousPiece(const Shape &global, const Shape &extents) {
  if (product(extents) == 0)
    return true;
  size_t first = 0;
  while (first < extents.size() && extents[first] == 1)
    ++first;
  for (size_t d = first + 1; d < extents.size(); ++d)
    if (extents[d] != global[d])
      return false;
  return true;
}

bool isRowBlockPiece(const Shape &global, const Shape &extents, int64_t split) {
  if (product(extents) == 0)
    return true;
  for (size_t d = static_cast<size_t>(split) + 1; d < extents.size(); ++d)
    if (extents[d] != global[d])
      return false;
  return isContiguousPiece(Shape(global.begin(), global.begin() + split),
                           Shape(extents.begin(), extents.begin() + split));
}

InputBinding planInputBinding(const SpmdProgram &program) {
  InputBinding binding;
  binding.inPlace.assign(program.values.size(), false);
  binding.rowSplit.assign(program.values.size(), -1);
  binding.rowSlot.assign(program.values.size(), -1);
  for (SpmdValueId input : program.inputs) {
    const ShardLayout &layout = program.layout(input);
    // An empty tensor's data may be null: nothing to point into. A partial
    // piece is the value on one device of its group, zeros on the others.
    if (layout.isDistributed() || layout.globalType.numElements() == 0 ||
        !layout.partialAxes.empty() || binding.inPlace[input])
      continue;
    const std::vector<PieceClass> classes = pieceClasses(layout);
    bool contiguous = true;
    for (const PieceClass &piece : classes)
      contiguous = contiguous && isContiguousPiece(layout.globalType.shape, piece.extents);
    binding.inPlace[input] = contiguous;
    if (contiguous || layout.hasHalo())
      continue;
    const int64_t split = dotRowSplitOfUses(program, input);
    if (split <= 0 || split >= layout.rank())
      continue; // one row or one element per row: contiguous if a row block
    bool rowBlocks = true;
    for (const PieceClass &piece : classes)
      rowBlocks = rowBlocks && isRowBlockPiece(layout.globalType.shape, piece.extents, split);
    if (!rowBlocks)
      continue;
    binding.inPlace[input] = true;
    binding.rowSplit[input] = split;
    binding.rowSlot[input] = static_cast<int64_t>(program.values.size()) + binding.numRowSlots++;
  }
  return binding;
}

} // namespace shardgen::codegen
