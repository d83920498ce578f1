#pragma once
// What a transfer step makes of each device's result, in the step-by-step
// (operational) semantics of SpmdProgram.h: the boxes of the group members'
// input pieces it is made of, in order. Body collectives (whose layouts are
// of the body-local tensor, so every group member may hold the same box) and
// reshard steps alike follow these semantics; uneven and empty pieces are
// exact. Internal to compiler/codegen.

#include <cstdint>
#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

/// A box of device `source`'s input piece (at `from`, relative to the
/// piece's start) placed at `to` in the result (or, for a reduction, at the
/// start of one dense operand of the combine).
struct PieceCopy {
  int64_t source = 0; // mesh position
  std::vector<int64_t> from, extents, to;
};

struct TransferRecipe {
  /// Move steps: the copies that fill the result. Reductions: one operand
  /// per group member, combined in this order.
  std::vector<PieceCopy> copies;
  /// A collective_permute target nobody sends to: the result is zeros.
  bool zeros = false;
};

/// Device `device`'s recipe for a transfer step other than Alias and
/// AllSlice. Throws GraphError ("internal: ...") when the step's layouts
/// disagree with its semantics (wrong result extents, indivisible chunks).
/// Every device's recipe for the communication step (by mesh position).
std::vector<TransferRecipe> transferRecipes(const SpmdProgram &program, const SpmdStep &step);

/// True when the step reduces (AllReduce, ReduceScatter).
bool isReduction(const SpmdStep &step);

} // namespace shardgen::codegen
