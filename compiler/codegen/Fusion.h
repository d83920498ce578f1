#pragma once
// Fusion of elementwise chains: a value made by an elementwise op and used
// once, by another elementwise op with the same local extents on every
// device, is never stored; both ops run in one loop at the consumer's step
// (no intermediate buffer, one pass over memory). A fused group is a tree of
// such steps rooted at the one whose result is kept. Rounding is unchanged:
// each fused intermediate is rounded to its element type as if stored, so
// fused and unfused programs give identical bytes. A broadcast_in_dim used
// only by such a group is fused too: the loop reads its operand through an
// index map (BroadcastFusion.cpp) instead of a materialized copy. A dot
// whose product only such a group consumes runs the group as its epilogue.

#include <cstdint>
#include <functional>
#include <optional>
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
  /// -1: one loop over the root's piece. Else (a broadcast is read in the
  /// loop) a nest: outer over the root's dims [0, split), inner over the rest.
  int64_t split = -1;
  /// The first step is a dot_general whose product the rest of the group
  /// consumes in the dot's epilogue (DotEpilogueFusion.cpp).
  bool dotEpilogue = false;
  size_t root() const { return steps.back(); }
};

/// How the fused loop reads a broadcast_in_dim's operand (never storing the
/// broadcast): one element for all (Scalar), at the inner index (it covers
/// the dims from `split` on: a bias along the last dims) or at the outer
/// index (it covers the dims before `split`: a per-row value).
struct BroadcastRead {
  enum Kind { Scalar, Inner, Outer } kind;
  int64_t split;
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

/// A step that may fold into its reader: the one step reading `value` (each
/// reader counted once however many operands it passes it to), or nothing
/// when `value` has several readers, none, or leaves the program.
class SoleReaders {
public:
  explicit SoleReaders(const SpmdProgram &program);
  std::optional<size_t> of(SpmdValueId value) const;

private:
  std::vector<std::vector<size_t>> readers_; // per value, ascending steps
  std::vector<bool> isOutput_;               // per value
};

/// How `step`, a broadcast_in_dim, can be read inside a fused loop, or
/// nothing when its operand's dims are not a prefix or suffix of the
/// result's (on every device's pieces) (BroadcastFusion.cpp).
std::optional<BroadcastRead> fusibleBroadcast(const SpmdProgram &program, const SpmdStep &step);

/// Adds to `plan` each fusible broadcast whose only consumer is a fusible
/// step (`isFusible`), into that step's group (a new one if it has none),
/// when the group's loop nest suits it.
void fuseBroadcasts(const SpmdProgram &program, FusionPlan &plan,
                    const std::function<bool(size_t)> &isFusible);

/// Fuses into each dot_general's epilogue its product's only consumer, a
/// fusible step (`isFusible`) with its group, when every read of the group
/// has an index the epilogue knows (the element, the product's column, a
/// scalar).
void fuseDotEpilogues(const SpmdProgram &program, FusionPlan &plan,
                      const std::function<bool(size_t)> &isFusible);

/// Emits the loop of one fused group (at its root's position in the steps).
void emitFusedGroup(EmitterContext &context, const FusedGroup &group);

/// "// /ops/2, /ops/3 (fused): t = multiply(a, x); y = add(t, b)".
std::string fusedGroupComment(const SpmdProgram &program, const FusedGroup &group);

} // namespace shardgen::codegen
