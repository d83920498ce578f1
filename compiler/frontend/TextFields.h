#pragma once
// Fields whose JSON value is a string in a small language of its own (tensor
// types, shardings, op sharding rules, enum names): parsed with the IR's
// parsers, failures reported at the field.

#include <string>

#include "compiler/frontend/JsonAccess.h"
#include "compiler/frontend/TypeTextCache.h"
#include "compiler/ir/Attributes.h"
#include "compiler/ir/OpShardingRule.h"
#include "compiler/ir/Sharding.h"
#include "compiler/ir/TensorType.h"

namespace shardgen {

/// Never empty: a text that is no type is reported.
UniquedOptional<TensorType> readType(const Json &json, const PointerRef &pointer,
                                     TypeTextCache &cache);
TensorSharding readSharding(const Json &json, const PointerRef &pointer);
OpShardingRule readShardingRule(const Json &json, const PointerRef &pointer);

ComparisonDirection readComparisonDirection(const Json &json, const PointerRef &pointer);
Reducer readReducer(const Json &json, const PointerRef &pointer);
BarrierDirection readBarrierDirection(const Json &json, const PointerRef &pointer);

} // namespace shardgen
