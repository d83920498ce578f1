#pragma once
// The `distribution` object (spec "Distributions"): read with its syntax
// checked (keys, kinds, the order's name); written back canonically, every
// key present: {"mesh": ..., "shard_shape": [...], "order": ...}. The mesh,
// the rank and the sizes are the verifier's to check.

#include "compiler/frontend/JsonAccess.h"
#include "compiler/ir/Distribution.h"

namespace shardgen {

Distribution readDistribution(const Json &json, const std::string &pointer);
Json distributionToJson(const Distribution &distribution);

} // namespace shardgen
