#pragma once
// Fusion of elementwise chains: a value made by an elementwise op and used
// once, by another elementwise op with the same local extents on every
// device, is never stored; both ops run in one loop at the consumer's step
// (no intermediate buffer, one pass over memory). A fused group is a tree of
// such steps rooted at the one whose result is kept. Rounding is unchanged:
// each fused intermediate is rounded to its element type as if stored, so
// fused and unfused programs give identical bytes.

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/codegen/EmitterContext.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

/// The most steps one fused group holds: a longer chain is cut into groups
/// of this size (storing the value between them), so no generated function
/// grows with the chain and equal pieces of a chain share one kernel.
inline constexpr size_t kMaxFusedGroupSteps = 32;

struct FusedGroup {
  /// The group's step indices in program order; the last is the root, whose
  /// outputs are the only values the group stores.
  std::vector<size_t> steps;
  size_t root() const { return steps.back(); }
};

struct FusionPlan {
  std::vector<FusedGroup> groups;
  /// Per step: the index of the group it belongs to, or -1 (emitted alone).
  std::vector<int64_t> groupOfStep;
  /// Per value: computed inside a fused loop and never stored.
  std::vector<bool> fusedAway;

  /// Whether step `index` is part of a group but not its root (its work is
  /// done in the root's loop).
  bool isFusedIntoLater(size_t index) const;
  /// The group whose root is step `index`, or null.
  const FusedGroup *groupRootedAt(size_t index) const;
  /// The step at which step `index`'s inputs are read: its group's root,
  /// else itself.
  size_t emissionStep(size_t index) const;
};

/// Groups fusible elementwise steps of `program` (deterministic: depends only
/// on the program).
FusionPlan planFusion(const SpmdProgram &program);

/// Emits the loop of one fused group (at its root's position in the steps).
void emitFusedGroup(EmitterContext &context, const FusedGroup &group);

/// "// /ops/2, /ops/3 (fused): t = multiply(a, x); y = add(t, b)".
std::string fusedGroupComment(const SpmdProgram &program, const FusedGroup &group);

} // namespace shardgen::codegen
