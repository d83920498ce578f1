#pragma once
// Values that are views of another value's buffer: no slot and no copy of
// their own, the generated code points them into their source's buffer
// (`values[out] = values[in] + offset`) and they are read only, like every
// value. The buffer planner (BufferPlan.cpp) gives a view its source's slot
// for as long as either lives; the emitters (ComputeEmitter.cpp,
// StructuredEmitter.cpp) write the pointer instead of a copy.

#include <optional>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

/// What output `i` of `step` is a view of: `source`, the step's input it
/// points into, and whether it is that buffer itself (`whole`: no offset,
/// the same bytes) or a contiguous part of it.
struct ViewOf {
  SpmdValueId source = -1;
  bool whole = true;
};

/// The views: the outputs of sharding annotations, barriers and Alias steps
/// (their input's buffer); a reshape's (a piece's bytes are its operand
/// piece's in the same order); a slice's with unit strides and a
/// dynamic_slice's when every device's piece is one contiguous range of its
/// operand's piece (whole leading rows), none of them on distributed values
/// (pieces in chunks); a loop's output i when its carried
/// value i is invariant (then the carried value is a view of the loop's
/// input i too).
std::optional<ViewOf> viewOf(const SpmdProgram &program, const SpmdStep &step, size_t i);

/// Whether the body of a Loop step returns its carried value i unchanged:
/// the value is never written while the loop runs.
bool isInvariantCarry(const SpmdStep &loop, size_t i);

} // namespace shardgen::codegen
