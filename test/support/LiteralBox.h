#pragma once
// Boxes of literals, as the tests cut tensors into devices' pieces and put
// them back together (the SPMD simulator, the per-device call style).

#include <cstdint>
#include <vector>

#include "compiler/ir/Literal.h"

namespace shardgen::testing {

/// Copies the box [offsets, offsets + extents) of `source` into a new literal.
Literal extractBox(const Literal &source, const std::vector<int64_t> &offsets,
                   const std::vector<int64_t> &extents);

/// Copies `box` into `target` at [offsets, offsets + box's shape).
void insertBox(Literal &target, const Literal &box, const std::vector<int64_t> &offsets);

} // namespace shardgen::testing
