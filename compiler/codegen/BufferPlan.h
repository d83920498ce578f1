#pragma once
// Buffer reuse: where each value's local piece lives in the device's arena.
// A value occupies its slot from the step that defines it (before the first
// step for program inputs) to the step that last reads it (after the last
// step for program outputs); a later value may take over a slot whose
// occupant is dead. A value defined at step s never shares a slot with a
// value read at s, so a kernel's output never aliases its inputs, and only
// values of one element type share a slot.
//
// A loop or branch step (SpmdProgram.h) holds every value of its blocks
// live for as long as it runs, across iterations.
//
// Views (BufferViews.h: `values[out] = values[in] + offset`, the aliases of
// sharding_constraint, barriers and the Alias step, reshape, contiguous
// slices, a loop's invariant carried values) extend the lifetime of the
// buffer they point into and need no slot of their own; values computed
// inside a fused loop need none either, nor do inputs bound in place
// (InputBinding.h) and their aliases.

#include <cstdint>
#include <vector>

#include "compiler/codegen/Fusion.h"
#include "compiler/codegen/InputBinding.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

struct BufferPlan {
  std::vector<int64_t> offsets; // per value, bytes into the arena (64-aligned)
  int64_t arenaBytes = 0;       // >= 64
};

BufferPlan planBuffers(const SpmdProgram &program, const FusionPlan &fusion,
                       const InputBinding &binding = {});

} // namespace shardgen::codegen
