#pragma once
// Which way shardings may cross an edge: forward (operands to results),
// backward, both or neither. Barriers and the op schedule restrict it.

#include <cstdint>

namespace shardgen::propagation {

enum class Direction : uint8_t { None = 0, Forward = 1, Backward = 2, Both = 3 };

inline Direction intersect(Direction a, Direction b) {
  return static_cast<Direction>(static_cast<int>(a) & static_cast<int>(b));
}
inline Direction unite(Direction a, Direction b) {
  return static_cast<Direction>(static_cast<int>(a) | static_cast<int>(b));
}
/// Whether `allowed` lets shardings go the way `wanted` names.
inline bool allows(Direction allowed, Direction wanted) {
  return intersect(allowed, wanted) == wanted;
}

} // namespace shardgen::propagation
