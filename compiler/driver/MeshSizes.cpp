#include "compiler/driver/MeshSizes.h"

#include <algorithm>
#include <set>

namespace shardgen::driver {
namespace {

/// The whole of `text` as an integer in [1, kMaxAxisSize], else -1.
int64_t axisSize(const std::string &text) {
  if (text.empty() || text.size() > 8 || text.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  int64_t size = std::stoll(text);
  return size >= 1 && size <= kMaxAxisSize ? size : -1;
}

std::string axisNames(const Graph &graph) {
  std::string names;
  std::set<std::string> listed;
  for (const Mesh &mesh : graph.meshes)
    for (const MeshAxis &axis : mesh.axes)
      if (listed.insert(axis.name).second)
        names += (names.empty() ? "" : ", ") + axis.name;
  return names.empty() ? "none" : names;
}

std::string sizeRangeError(const std::string &axis, const std::string &size) {
  return "size of axis \"" + axis + "\" must be an integer from 1 to " +
         std::to_string(kMaxAxisSize) + ", got '" + size + "'";
}

} // namespace

MeshSizes parseMeshSizes(const std::string &text) {
  MeshSizes sizes;
  std::set<std::string> seen;
  for (size_t start = 0; start <= text.size();) {
    size_t end = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, end - start);
    size_t eq = item.rfind('=');
    if (eq == std::string::npos || eq == 0)
      throw MeshSizeError("expected AXIS=SIZE[,AXIS=SIZE...], got '" + item + "' in '" + text +
                          "'");
    std::string axis = item.substr(0, eq);
    int64_t size = axisSize(item.substr(eq + 1));
    if (size < 0)
      throw MeshSizeError(sizeRangeError(axis, item.substr(eq + 1)));
    if (!seen.insert(axis).second)
      throw MeshSizeError("axis \"" + axis + "\" is given twice");
    sizes.emplace_back(axis, size);
    start = end + 1;
  }
  return sizes;
}

std::string meshSizesText(const MeshSizes &sizes) {
  std::string text;
  for (const auto &[name, size] : sizes)
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(size);
  return text;
}

void applyMeshSizes(Graph &graph, const MeshSizes &sizes) {
  for (const auto &[name, size] : sizes) {
    if (size < 1 || size > kMaxAxisSize)
      throw MeshSizeError(sizeRangeError(name, std::to_string(size)));
    bool found = false;
    for (Mesh &mesh : graph.meshes)
      for (MeshAxis &axis : mesh.axes)
        if (axis.name == name) {
          axis.size = size;
          found = true;
        }
    if (!found)
      throw MeshSizeError("no mesh of the graph has an axis \"" + name +
                          "\" (its axes: " + axisNames(graph) + ")");
  }
  for (const Mesh &mesh : graph.meshes) {
    if (mesh.deviceIds.empty() || mesh.axes.empty())
      continue;
    int64_t devices = 1;
    for (const MeshAxis &axis : mesh.axes)
      if (__builtin_mul_overflow(devices, axis.size, &devices))
        devices = INT64_MAX;
    if (devices != static_cast<int64_t>(mesh.deviceIds.size()))
      throw MeshSizeError("mesh @" + mesh.name + " lists " + std::to_string(mesh.deviceIds.size()) +
                          " device_ids (" + mesh.pointer + "/device_ids), but with " +
                          meshSizesText(sizes) + " it has " + std::to_string(devices) + " devices");
  }
}

} // namespace shardgen::driver
