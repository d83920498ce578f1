#include "compiler/codegen/InputBinding.h"

#include "compiler/codegen/PieceIndexing.h"
#include "compiler/codegen/StridedWalk.h"

namespace shardgen::codegen {

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

InputBinding planInputBinding(const SpmdProgram &program) {
  InputBinding binding;
  binding.inPlace.assign(program.values.size(), false);
  for (SpmdValueId input : program.inputs) {
    const ShardLayout &layout = program.layout(input);
    // An empty tensor's data may be null: nothing to point into. A partial
    // piece is the value on one device of its group, zeros on the others.
    if (layout.isDistributed() || layout.globalType.numElements() == 0 ||
        !layout.partialAxes.empty())
      continue;
    bool contiguous = true;
    for (const PieceClass &piece : pieceClasses(layout))
      contiguous = contiguous && isContiguousPiece(layout.globalType.shape, piece.extents);
    binding.inPlace[input] = contiguous;
  }
  return binding;
}

} // namespace shardgen::codegen
