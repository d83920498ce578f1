#pragma once
// The 64-bit FNV-1a step the propagation tables hash their keys with.

#include <cstdint>

namespace shardgen::propagation {

inline constexpr uint64_t kFnvOffsetBasis = 1469598103934665603ull;

/// `hash` with one more value folded in.
inline uint64_t fnvMix(uint64_t hash, int64_t value) {
  return (hash ^ static_cast<uint64_t>(value)) * 1099511628211ull;
}

} // namespace shardgen::propagation
