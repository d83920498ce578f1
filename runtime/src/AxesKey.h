#pragma once
// Backends cache per-collective state (groups, communicators) by the axis
// list a collective names.

#include <cstdint>

#include "shardgen/communicator.h"

namespace shardgen::runtime {

/// One key per axis list (in the listed order).
inline uint64_t axesKey(const CollectiveGroup &group) {
  uint64_t key = 0;
  for (int32_t i = 0; i < group.numAxes; ++i)
    key = key * 16 + static_cast<uint64_t>(group.axes[i] + 1);
  return key;
}

} // namespace shardgen::runtime
