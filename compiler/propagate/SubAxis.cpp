#include "compiler/propagate/SubAxis.h"

#include <algorithm>

namespace shardgen::propagation {

bool overlaps(const SubAxis &a, const SubAxis &b) {
  // Equal starts always overlap: a mesh axis of size 1 is the empty interval
  // [1, 1), yet using it twice in a tensor is still using it twice.
  return a.axis == b.axis && (a.pre == b.pre || (a.pre < b.end() && b.pre < a.end()));
}

bool contains(const SubAxis &outer, const SubAxis &inner) {
  return outer.axis == inner.axis && outer.pre <= inner.pre && inner.end() <= outer.end();
}

bool isPrefixOf(const SubAxis &a, const SubAxis &b) {
  return a.axis == b.axis && a.pre == b.pre && a.size <= b.size;
}

bool canCoexist(const SubAxis &a, const SubAxis &b) {
  if (a.axis != b.axis)
    return true;
  const int64_t minPre = std::min(a.pre, b.pre), maxPre = std::max(a.pre, b.pre);
  const int64_t minEnd = std::min(a.end(), b.end()), maxEnd = std::max(a.end(), b.end());
  if (minEnd > maxPre) // overlapping: both the shared and the other parts must be sub-axes
    return minEnd % maxPre == 0 && maxPre % minPre == 0 && maxEnd % minEnd == 0;
  return maxPre % minEnd == 0; // disjoint: the gap between them must be a sub-axis
}

std::optional<SubAxis> prefixWithoutOverlap(const SubAxis &a, const SubAxis &other) {
  if (!canCoexist(a, other))
    return std::nullopt; // Shardy's getPrefixWithoutOverlap: no device order fits both
  if (!overlaps(a, other))
    return a;
  // Only a piece of `a` before `other` starts can survive; sub-axes of one
  // axis nest by divisibility, so the quotient is exact for valid shardings.
  if (other.pre <= a.pre || other.pre % a.pre != 0)
    return std::nullopt;
  return SubAxis{a.axis, a.pre, other.pre / a.pre};
}

std::optional<SubAxis> prefixWithoutOverlap(const SubAxis &a, const AxisList &others) {
  std::optional<SubAxis> result = a;
  for (const SubAxis &other : others) {
    result = prefixWithoutOverlap(*result, other);
    if (!result)
      return std::nullopt;
  }
  return result;
}

void appendOrMerge(AxisList &axes, const SubAxis &axis) {
  if (!axes.empty() && axes.back().axis == axis.axis && axes.back().end() == axis.pre) {
    axes.back().size *= axis.size;
    return;
  }
  axes.push_back(axis);
}

int64_t product(const AxisList &axes) {
  int64_t result = 1;
  for (const SubAxis &axis : axes)
    result *= axis.size;
  return result;
}

bool overlapsAny(const SubAxis &axis, const AxisList &axes) {
  for (const SubAxis &other : axes)
    if (overlaps(axis, other))
      return true;
  return false;
}

PrefixStatus axisListPrefixStatus(const AxisList &first, const AxisList &second) {
  if (first.empty())
    return second.empty() ? PrefixStatus::Equal : PrefixStatus::StrictPrefix;
  if (first.size() > second.size())
    return PrefixStatus::NotAPrefix;
  size_t last = first.size() - 1;
  for (size_t i = 0; i < last; ++i)
    if (!(first[i] == second[i]))
      return PrefixStatus::NotAPrefix;
  if (first.size() == second.size() && first[last] == second[last])
    return PrefixStatus::Equal;
  return isPrefixOf(first[last], second[last]) ? PrefixStatus::StrictPrefix
                                               : PrefixStatus::NotAPrefix;
}

SubAxis toSubAxis(const AxisRef &ref, const Mesh &mesh) {
  auto index = mesh.axisIndex(ref.name);
  SubAxis axis;
  axis.axis = index ? static_cast<int32_t>(*index) : 0;
  axis.pre = ref.pre();
  axis.size = ref.subSize ? *ref.subSize : (index ? mesh.axes[*index].size : 1);
  return axis;
}

AxisRef toAxisRef(const SubAxis &axis, const Mesh &mesh) {
  const MeshAxis &meshAxis = mesh.axes[axis.axis];
  if (axis.pre == 1 && axis.size == meshAxis.size)
    return AxisRef::full(meshAxis.name);
  return AxisRef::sub(meshAxis.name, axis.pre, axis.size);
}

} // namespace shardgen::propagation
