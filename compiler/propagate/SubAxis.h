#pragma once
// Inside propagation a mesh axis or sub-axis is a triple (axis index, pre-size,
// size) over one mesh: prefix, containment and overlap tests become integer
// arithmetic. A full axis is {axis, 1, axisSize}. Sub-axes of one axis are
// intervals [pre, pre*size) in the axis' multiplicative coordinate space.

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/Sharding.h"

namespace shardgen::propagation {

struct SubAxis {
  int32_t axis = 0;
  int64_t pre = 1;
  int64_t size = 1;

  int64_t end() const { return pre * size; }
  bool operator==(const SubAxis &) const = default;
};

using AxisList = std::vector<SubAxis>;

bool overlaps(const SubAxis &a, const SubAxis &b);
/// `outer` covers every device coordinate of `inner`.
bool contains(const SubAxis &outer, const SubAxis &inner);
/// `a` starts where `b` starts and is not larger (Shardy's prefixOf).
bool isPrefixOf(const SubAxis &a, const SubAxis &b);
/// Whether two pieces of one axis fit one device order (Shardy's
/// canCoexist): "a":(1)2 and "a":(3)2 of a size-6 axis do not.
bool canCoexist(const SubAxis &a, const SubAxis &b);
/// The largest prefix of `a` sharing no device coordinate with `other`;
/// none when the two cannot coexist.
std::optional<SubAxis> prefixWithoutOverlap(const SubAxis &a, const SubAxis &other);
std::optional<SubAxis> prefixWithoutOverlap(const SubAxis &a, const AxisList &others);
/// Appends `axis`, merging it into the last entry when they are consecutive
/// pieces of one axis (so "x":(1)2 then "x":(2)2 becomes "x":(1)4).
void appendOrMerge(AxisList &axes, const SubAxis &axis);
int64_t product(const AxisList &axes);
bool overlapsAny(const SubAxis &axis, const AxisList &axes);

enum class PrefixStatus { NotAPrefix, StrictPrefix, Equal };
/// Whether `first` is a prefix of `second`, where its last entry may be a
/// prefix sub-axis of the corresponding entry of `second`.
PrefixStatus axisListPrefixStatus(const AxisList &first, const AxisList &second);
inline bool isStrictPrefix(const AxisList &first, const AxisList &second) {
  return axisListPrefixStatus(first, second) == PrefixStatus::StrictPrefix;
}

/// Conversions to and from the IR's named axis references.
SubAxis toSubAxis(const AxisRef &ref, const Mesh &mesh);
AxisRef toAxisRef(const SubAxis &axis, const Mesh &mesh);

} // namespace shardgen::propagation
