#pragma once
// Inputs read in place: when every device's piece of a program input is one
// contiguous range of the global tensor, the global-tensor call style points
// the input's value at that range instead of copying it into the arena (and
// the per-device style points it at the caller's piece). Such an input needs
// no arena slot. No step writes an input's buffer (a value is written only
// by the step defining it, and aliases write nothing), so the caller's
// tensors are only read.

#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

struct InputBinding {
  /// Per value: a program input bound in place (no copy, no slot).
  std::vector<bool> inPlace;
  bool boundInPlace(SpmdValueId value) const {
    return value >= 0 && static_cast<size_t>(value) < inPlace.size() && inPlace[value];
  }
};

/// Whether a piece of `extents` is one contiguous row-major range of a
/// tensor of shape `global`: after its first dim longer than 1, every dim is
/// whole (an empty piece reads nothing and counts as contiguous).
bool isContiguousPiece(const Shape &global, const Shape &extents);

/// Binds in place every non-empty, non-distributed program input whose
/// pieces are all contiguous.
InputBinding planInputBinding(const SpmdProgram &program);

} // namespace shardgen::codegen
