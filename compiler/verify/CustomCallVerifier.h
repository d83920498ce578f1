#pragma once
// A custom_call's target name (CustomCallNames.h) and its sharding_rule
// against the call's operands and results:
// one tensor mapping per value, of its rank, whose factor sizes multiply to
// each dim's size (Shardy's op sharding rule verifier).

#include "compiler/ir/Graph.h"

namespace shardgen::verify {

void verifyCustomCall(const Graph &graph, const Op &op);

} // namespace shardgen::verify
