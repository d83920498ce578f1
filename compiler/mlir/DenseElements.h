#pragma once
// The body of `dense<...>` to and from a Literal: a splat value, nested
// lists, or a hex string of the raw little-endian bytes (as JAX prints large
// constants). Floats print with the fewest digits that read back to the same
// bits; infinities and NaNs as their hex bit pattern, as MLIR does.

#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir/Attributes.h"

namespace shardgen::mlir {

/// nullopt with `error` set when the text does not fit `type`.
std::optional<ConstantAttrs> parseDenseBody(std::string_view body, const TensorType &type,
                                            std::string *error);
std::string printDenseBody(const ConstantAttrs &constant);

} // namespace shardgen::mlir
