#pragma once
// The JSON form of a constant's `value`: one number (a splat) or nested arrays
// (row-major, the nesting gives the shape), converted to and from a Literal.

#include <optional>
#include <string>

#include "compiler/frontend/JsonAccess.h"
#include "compiler/ir/Attributes.h"
#include "compiler/ir/TensorType.h"

namespace shardgen {

/// Reads `value` at `pointer`; `declared` is the op's `type` if the file gave
/// one (a splat needs it), reported missing at `typePointer`. Without a type,
/// booleans make i1, integers i32, anything else f32.
ConstantAttrs readConstantValue(const Json &value, const std::string &pointer,
                                const std::optional<TensorType> &declared,
                                const std::string &typePointer);

/// Fails at `pointer` when a constant of `type` is too large to hold (over
/// 2 GiB, or a size that overflows): every reader of constants checks this
/// before allocating.
void checkConstantSize(const TensorType &type, const std::string &pointer);

/// The JSON value that reads back to exactly `constant` (given its type).
Json constantValueToJson(const ConstantAttrs &constant);

} // namespace shardgen
