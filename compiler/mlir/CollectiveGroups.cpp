#include "compiler/mlir/CollectiveGroups.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace shardgen::mlir {

namespace {

std::vector<size_t> axisIndices(const Mesh &mesh, const std::vector<std::string> &axes) {
  std::vector<size_t> indices;
  for (const auto &axis : axes)
    indices.push_back(*mesh.axisIndex(axis));
  return indices;
}

/// Calls visit(groupIndex, positionInGroup, devicePosition) for every device.
template <typename Visit>
void forEachMember(const Mesh &mesh, const std::vector<size_t> &axes, Visit visit) {
  int64_t groupSize = 1;
  for (size_t a : axes)
    groupSize *= mesh.axes[a].size;
  std::map<std::vector<int64_t>, int64_t> groupOf; // the other axes' coordinates
  for (int64_t position = 0; position < mesh.numDevices(); ++position) {
    std::vector<int64_t> coords = mesh.coordinates(position);
    int64_t inGroup = 0;
    for (size_t a : axes) {
      inGroup = inGroup * mesh.axes[a].size + coords[a];
      coords[a] = 0;
    }
    auto [it, added] = groupOf.emplace(coords, static_cast<int64_t>(groupOf.size()));
    visit(it->second, inGroup, groupSize, position);
  }
}

DeviceGroups sorted(DeviceGroups groups) {
  std::sort(groups.begin(), groups.end());
  return groups;
}

/// Device id -> row-major position, or nullopt for an id not in the mesh.
std::optional<int64_t> positionOf(const Mesh &mesh, int64_t id) {
  if (mesh.deviceIds.empty())
    return id >= 0 && id < mesh.numDevices() ? std::optional<int64_t>(id) : std::nullopt;
  auto it = std::find(mesh.deviceIds.begin(), mesh.deviceIds.end(), id);
  if (it == mesh.deviceIds.end())
    return std::nullopt;
  return it - mesh.deviceIds.begin();
}

} // namespace

DeviceGroups replicaGroups(const Mesh &mesh, const std::vector<std::string> &axes) {
  DeviceGroups groups;
  forEachMember(mesh, axisIndices(mesh, axes),
                [&](int64_t group, int64_t inGroup, int64_t groupSize, int64_t position) {
                  if (group >= static_cast<int64_t>(groups.size()))
                    groups.resize(group + 1, std::vector<int64_t>(groupSize));
                  groups[group][inGroup] = mesh.deviceId(position);
                });
  return groups;
}

DevicePairs permutePairs(const Mesh &mesh, const std::vector<std::string> &axes, int64_t shift) {
  DeviceGroups groups = replicaGroups(mesh, axes);
  DevicePairs pairs;
  for (const auto &group : groups) {
    int64_t n = static_cast<int64_t>(group.size());
    for (int64_t p = 0; p < n; ++p)
      pairs.emplace_back(group[p], group[(((p + shift) % n) + n) % n]);
  }
  return pairs;
}

std::optional<std::vector<std::string>> axesOfGroups(const Mesh &mesh, const DeviceGroups &groups) {
  if (groups.empty() || groups[0].size() < 2)
    return std::nullopt;
  std::vector<std::vector<int64_t>> coords;
  for (int64_t id : groups[0]) {
    auto position = positionOf(mesh, id);
    if (!position)
      return std::nullopt;
    coords.push_back(mesh.coordinates(*position));
  }
  // The axes that vary inside the first group, major (changing least often) first.
  std::vector<std::pair<size_t, size_t>> strideAndAxis;
  for (size_t a = 0; a < mesh.axes.size(); ++a)
    for (size_t k = 1; k < coords.size(); ++k)
      if (coords[k][a] != coords[0][a]) {
        strideAndAxis.emplace_back(k, a);
        break;
      }
  std::sort(strideAndAxis.begin(), strideAndAxis.end(),
            [](const auto &x, const auto &y) { return x.first > y.first; });
  std::vector<std::string> axes;
  for (const auto &[stride, a] : strideAndAxis)
    axes.push_back(mesh.axes[a].name);
  if (axes.empty() || sorted(replicaGroups(mesh, axes)) != sorted(groups))
    return std::nullopt;
  return axes;
}

std::optional<std::pair<std::vector<std::string>, int64_t>> axesOfPairs(const Mesh &mesh,
                                                                        const DevicePairs &pairs) {
  if (pairs.empty())
    return std::nullopt;
  std::vector<size_t> varying;
  for (const auto &[source, target] : pairs) {
    auto s = positionOf(mesh, source), t = positionOf(mesh, target);
    if (!s || !t)
      return std::nullopt;
    auto cs = mesh.coordinates(*s), ct = mesh.coordinates(*t);
    for (size_t a = 0; a < mesh.axes.size(); ++a)
      if (cs[a] != ct[a] && std::find(varying.begin(), varying.end(), a) == varying.end())
        varying.push_back(a);
  }
  if (varying.empty() || varying.size() > 4)
    return std::nullopt;
  std::sort(varying.begin(), varying.end());
  DevicePairs wanted = pairs;
  std::sort(wanted.begin(), wanted.end());
  do {
    std::vector<std::string> axes;
    for (size_t a : varying)
      axes.push_back(mesh.axes[a].name);
    // The shift that takes the first pair's source to its target.
    DeviceGroups groups = replicaGroups(mesh, axes);
    for (const auto &group : groups) {
      auto from = std::find(group.begin(), group.end(), pairs[0].first);
      auto to = std::find(group.begin(), group.end(), pairs[0].second);
      if (from == group.end() || to == group.end())
        continue;
      int64_t n = static_cast<int64_t>(group.size());
      int64_t shift = (((to - from) % n) + n) % n;
      DevicePairs candidate = permutePairs(mesh, axes, shift);
      std::sort(candidate.begin(), candidate.end());
      if (candidate == wanted)
        return std::make_pair(axes, shift);
    }
  } while (std::next_permutation(varying.begin(), varying.end()));
  return std::nullopt;
}

} // namespace shardgen::mlir
