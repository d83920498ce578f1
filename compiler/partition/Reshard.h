#pragma once
// Reshard planning: the collective steps that turn one layout of a tensor
// into another on the same mesh, exactly for uneven pieces.
//
// Order: partial axes first (reduce_scatter where the target adds the axis
// to a dim, else all_reduce); then per dim the common axis prefix stays,
// new axes that are free are sliced first (all_slice, local, shrinks the
// data early), an axis moving from the minor end of one dim to the minor end
// of another is an all_to_all, the remaining removals are all_gathers of a
// dim's minor axes and the remaining additions all_slices. When a step would
// not be exact with uneven pieces (the kept prefix's chunks are not
// divisible by the moved axes), the whole dim is gathered instead, so the
// concatenation of real extents is exact. A pure permutation of equal
// pieces between devices is one collective_permute. Of the candidate plans
// the one moving the fewest bytes wins. Both layouts are first cut into
// their common sub-axes ("x" next to "x":(1)2 is "x":(1)2, "x":(2)2), so a
// sub-axis and its whole axis share a prefix; the steps are spelled merged.

#include <string>
#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

struct PlannedStep {
  SpmdStep step;      // kind, axes, dimension(s), reducer, pairs; no value ids
  ShardLayout result; // the layout after the step
};

struct ReshardPlan {
  std::vector<PlannedStep> steps;
  int64_t bytesReceived = 0; // over all devices
};

/// The cheapest exact plan from `from` to `to` (same global type and mesh).
/// Partial axes that `to` lists but `from` does not hold are not created:
/// the value is already complete.
ReshardPlan planReshard(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to);

/// Appends the steps of planReshard to `program` (attributed to `op` and
/// `pointer`) and returns the value that holds `value` in layout `to`
/// (`value` itself when nothing is to do).
SpmdValueId appendReshard(SpmdProgram &program, SpmdValueId value, const ShardLayout &to,
                          const Op *op, const std::string &pointer);

} // namespace shardgen
