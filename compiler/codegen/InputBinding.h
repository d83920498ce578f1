#pragma once
// Inputs read in place: when every device's piece of a program input is one
// contiguous range of the global tensor, the global-tensor call style points
// the input's value at that range instead of copying it into the arena (and
// the per-device style points it at the caller's piece). Such an input needs
// no arena slot. No step writes an input's buffer (a value is written only
// by the step defining it, and aliases write nothing), so the caller's
// tensors are only read.
//
// An input whose pieces are row blocks instead (a column block of a matrix:
// rows contiguous, one row stride apart) is read in place too when every use
// of it is a dot_general operand the kernel reads as those rows: the kernel
// takes its row stride at run time, as the distance from the piece's first
// element to its second row's, a pointer the binding sets in a slot of its
// own past the program's values (`values[rowSlot]`). It differs between the
// styles: the global tensor's row length in the global style, the piece's
// own (a dense piece) in the per-device one.

#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

struct InputBinding {
  /// Per value: a program input bound in place (no copy, no slot).
  std::vector<bool> inPlace;
  /// Per value bound in place with a row stride: the first dim of its rows
  /// (its dims from there on make one row); -1 for every other value.
  std::vector<int64_t> rowSplit;
  /// Per such value: the index of its row pointer's slot, past the
  /// program's values; -1 for every other value.
  std::vector<int64_t> rowSlot;
  int64_t numRowSlots = 0;

  bool boundInPlace(SpmdValueId value) const {
    return value >= 0 && static_cast<size_t>(value) < inPlace.size() && inPlace[value];
  }
  bool boundWithRowStride(SpmdValueId value) const {
    return value >= 0 && static_cast<size_t>(value) < rowSlot.size() && rowSlot[value] >= 0;
  }
};

/// Whether a piece of `extents` is one contiguous row-major range of a
/// tensor of shape `global`: after its first dim longer than 1, every dim is
/// whole (an empty piece reads nothing and counts as contiguous).
bool isContiguousPiece(const Shape &global, const Shape &extents);

/// Whether a piece of `extents` is evenly spaced rows of a tensor of shape
/// `global` seen as [rows, row] with its dims from `split` on in a row: the
/// dims after `split` whole, those before it a contiguous piece of theirs.
bool isRowBlockPiece(const Shape &global, const Shape &extents, int64_t split);

/// Binds in place every non-empty, non-distributed program input whose
/// pieces are all contiguous, and, with a row stride, those whose pieces
/// are row blocks read only as dot_general operands in those rows.
InputBinding planInputBinding(const SpmdProgram &program);

} // namespace shardgen::codegen
