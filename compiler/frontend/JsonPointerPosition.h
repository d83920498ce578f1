#pragma once
// Where in a JSON text the value a JSON pointer names begins, as a line and
// column: errors carry pointers (GraphError), an editor wants positions.

#include <cstdint>
#include <optional>
#include <string_view>

namespace shardgen {

struct TextPosition {
  int64_t line = 1;   // 1-based
  int64_t column = 1; // 1-based, in bytes
};

/// The position of the value `pointer` (RFC 6901) names in `json`, or, when
/// the text has no such value, of the deepest value on the way to it that it
/// has. nullopt when `pointer` is not a pointer or the text has no value at
/// its root. Linear in the text; never recursive.
std::optional<TextPosition> jsonPointerPosition(std::string_view json, std::string_view pointer);

} // namespace shardgen
