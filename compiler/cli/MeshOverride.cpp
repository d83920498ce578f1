#include "compiler/cli/MeshOverride.h"

#include <set>
#include <utility>
#include <vector>

#include "compiler/cli/Command.h"
#include "compiler/cli/TerminalText.h"

namespace shardgen::cli {

const OptionSpec kMeshOption{"--mesh", OptionSpec::Value, "AXIS=SIZE,...",
                             "override mesh axis sizes before verification (e.g. data=4,model=2)"};

namespace {

constexpr int64_t kMaxAxisSize = int64_t(1) << 20; // the verifier's device limit

/// The whole of `text` as an integer in [1, kMaxAxisSize], else -1.
int64_t axisSize(const std::string &text) {
  if (text.empty() || text.size() > 8 || text.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  int64_t size = std::stoll(text);
  return size >= 1 && size <= kMaxAxisSize ? size : -1;
}

std::vector<std::pair<std::string, int64_t>> parseOverride(const std::string &text) {
  std::vector<std::pair<std::string, int64_t>> sizes;
  std::set<std::string> seen;
  for (size_t start = 0; start <= text.size();) {
    size_t end = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, end - start);
    size_t eq = item.rfind('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--mesh", "expected AXIS=SIZE[,AXIS=SIZE...], got '" + printable(item) +
                                     "' in '" + printable(text) + "'");
    std::string axis = item.substr(0, eq);
    int64_t size = axisSize(item.substr(eq + 1));
    if (size < 0)
      throw InputError("--mesh", "size of axis \"" + printable(axis) +
                                     "\" must be an integer from 1 to " +
                                     std::to_string(kMaxAxisSize) + ", got '" +
                                     printable(item.substr(eq + 1)) + "'");
    if (!seen.insert(axis).second)
      throw InputError("--mesh", "axis \"" + printable(axis) + "\" is given twice");
    sizes.emplace_back(axis, size);
    start = end + 1;
  }
  return sizes;
}

std::string axisNames(const Graph &graph) {
  std::string names;
  std::set<std::string> listed;
  for (const Mesh &mesh : graph.meshes)
    for (const MeshAxis &axis : mesh.axes)
      if (listed.insert(axis.name).second)
        names += (names.empty() ? "" : ", ") + printable(axis.name);
  return names.empty() ? "none" : names;
}

} // namespace

void applyMeshOverride(const ParsedArgs &args, Graph &graph) {
  std::optional<std::string> text = args.value("--mesh");
  if (!text)
    return;
  for (const auto &[name, size] : parseOverride(*text)) {
    bool found = false;
    for (Mesh &mesh : graph.meshes)
      for (MeshAxis &axis : mesh.axes)
        if (axis.name == name) {
          axis.size = size;
          found = true;
        }
    if (!found)
      throw InputError("--mesh", "no mesh of the graph has an axis \"" + printable(name) +
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
      throw InputError("--mesh", "mesh @" + printable(mesh.name) + " lists " +
                                     std::to_string(mesh.deviceIds.size()) + " device_ids (" +
                                     mesh.pointer + "/device_ids), but with " + printable(*text) +
                                     " it has " + std::to_string(devices) + " devices");
  }
}

} // namespace shardgen::cli
