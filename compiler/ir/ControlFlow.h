#pragma once
// StableHLO's control flow (while, case, if): their regions run as steps and,
// unlike a manual computation's body, see the values of the regions around
// them. What the stages need to know about such an op beyond its row.

#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen {

/// while, case, if.
bool isControlFlow(OpKind kind);

/// The values an op's regions (and the regions nested in them) read that
/// are defined outside them, each once, in the order they are first read:
/// what the op reads besides its operands. Empty for an op whose regions
/// are isolated from above.
std::vector<ValueId> capturedValues(const Op &op);

} // namespace shardgen
