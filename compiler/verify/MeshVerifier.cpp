#include "compiler/verify/MeshVerifier.h"

#include <algorithm>
#include <set>

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

/// Devices are threads or ranks: far fewer than this.
static constexpr int64_t kMaxDevices = int64_t(1) << 20;
/// The runtime's device context has room for this many axes (any more would
/// be size-1 axes: 2^20 devices need at most 20 larger ones).
static constexpr int64_t kMaxMeshAxes = 32;

static void verifyDeviceIds(const Mesh &mesh, int64_t numDevices) {
  const std::string idsPointer = joinPointer(mesh.pointer, "device_ids");
  for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
    if (mesh.deviceIds[i] < 0)
      fail(joinPointer(idsPointer, i),
           "device id must be non-negative, got: " + std::to_string(mesh.deviceIds[i]));
  if (mesh.axes.empty() && mesh.deviceIds.size() > 1)
    fail(idsPointer, "axes is empty and device_ids has more than one element");
  if (static_cast<int64_t>(mesh.deviceIds.size()) != numDevices)
    fail(idsPointer, "total product of axis sizes must match total number of device ids, got: " +
                         std::to_string(numDevices) +
                         " != " + std::to_string(mesh.deviceIds.size()));
  if (mesh.axes.empty())
    return; // a maximal mesh: its one id names any device
  std::vector<int64_t> sorted = mesh.deviceIds;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i))
      fail(idsPointer,
           "device_ids must be a permutation of 0.." + std::to_string(numDevices - 1) +
               " (sorted device ids must be iota(product(axes))), got: " + formatList(sorted));
}

/// Mesh and axis names are written into sharding text ("<@mesh, [{"x"}]>")
/// and must read back: not empty, and no '"' (a quoted name has no escapes).
static void verifyName(const std::string &name, const std::string &pointer, const char *what) {
  if (name.empty())
    fail(pointer, std::string(what) + " name must not be empty");
  if (name.find('"') != std::string::npos)
    fail(pointer, std::string(what) + " name \"" + name +
                      "\" contains '\"', which sharding text cannot quote");
}

static void verifyMesh(const Mesh &mesh) {
  verifyName(mesh.name, joinPointer(mesh.pointer, "name"), "mesh");
  if (mesh.axes.size() > static_cast<size_t>(kMaxMeshAxes))
    fail(joinPointer(joinPointer(mesh.pointer, "axes"), kMaxMeshAxes),
         "mesh \"" + mesh.name + "\" has " + std::to_string(mesh.axes.size()) +
             " axes; shardgen supports at most " + std::to_string(kMaxMeshAxes));
  std::set<std::string> axisNames;
  int64_t numDevices = 1;
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    const MeshAxis &axis = mesh.axes[i];
    const std::string axisPointer = joinPointer(joinPointer(mesh.pointer, "axes"), i);
    verifyName(axis.name, joinPointer(axisPointer, "name"), "axis");
    if (!axisNames.insert(axis.name).second)
      fail(joinPointer(axisPointer, "name"), "duplicate axis name: \"" + axis.name + "\"");
    if (axis.size <= 0)
      fail(joinPointer(axisPointer, "size"),
           "axis size must be at least 1, got: " + std::to_string(axis.size));
    auto product = checkedMul(numDevices, axis.size);
    if (!product || *product > kMaxDevices)
      fail(joinPointer(axisPointer, "size"),
           "mesh \"" + mesh.name + "\" has more than " + std::to_string(kMaxDevices) + " devices");
    numDevices = *product;
  }
  if (!mesh.deviceIds.empty())
    verifyDeviceIds(mesh, numDevices);
}

void verifyMeshes(const Graph &graph) {
  std::set<std::string> meshNames;
  for (const Mesh &mesh : graph.meshes) {
    if (!meshNames.insert(mesh.name).second)
      fail(joinPointer(mesh.pointer, "name"), "duplicate mesh name: \"" + mesh.name + "\"");
    verifyMesh(mesh);
  }
}

} // namespace shardgen::verify
