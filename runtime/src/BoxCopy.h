#pragma once
// Copies one box of a global row-major tensor to or from a dense local
// buffer: the data movement behind every scatter and gather helper.

#include <cstdint>
#include <vector>

#include "shardgen/distribution.h"

namespace shardgen::runtime {

enum class BoxDirection { GlobalToLocal, LocalToGlobal };

/// The box `box` of the global tensor (shape `globalShape`) corresponds to
/// the leading corner of the local buffer (shape `localShape`, at least
/// box.extent); `direction` says which of the two is `source`.
void copyBox(const std::vector<int64_t> &globalShape, const ShardBox &box,
             const std::vector<int64_t> &localShape, int64_t elementBytes, BoxDirection direction,
             const void *source, void *destination);

int64_t volumeOf(const std::vector<int64_t> &shape);

} // namespace shardgen::runtime
