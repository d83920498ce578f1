#pragma once
// StableHLO names a collective's devices by replica_groups (device ids, with
// use_global_device_ids) or source_target_pairs; the graph format by mesh
// axes. These convert between the two for one mesh: a group is the devices
// that differ only in the coordinates of `axes`, listed in position order
// (row-major over `axes` as given), so the axis order can be read back from
// the order inside a group.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/Mesh.h"

namespace shardgen::mlir {

using DeviceGroups = std::vector<std::vector<int64_t>>;
using DevicePairs = std::vector<std::pair<int64_t, int64_t>>;

/// Requires every axis to exist in `mesh`.
DeviceGroups replicaGroups(const Mesh &mesh, const std::vector<std::string> &axes);
/// The pairs (source, target) of a cyclic shift by `shift` positions along `axes`.
DevicePairs permutePairs(const Mesh &mesh, const std::vector<std::string> &axes, int64_t shift);

/// The axes (major to minor) whose groups are exactly `groups` (in any group
/// order), or nullopt when no list of axes gives them.
std::optional<std::vector<std::string>> axesOfGroups(const Mesh &mesh, const DeviceGroups &groups);
/// The axes and shift (1..n-1) whose pairs are exactly `pairs`, or nullopt.
std::optional<std::pair<std::vector<std::string>, int64_t>> axesOfPairs(const Mesh &mesh,
                                                                        const DevicePairs &pairs);

} // namespace shardgen::mlir
