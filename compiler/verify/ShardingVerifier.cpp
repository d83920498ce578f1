#include "compiler/verify/ShardingVerifier.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/Verifier.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

namespace {

/// Shardy's order of axis refs w.r.t. a mesh: by axis, then sub-axes by
/// pre-size then size (a full axis is pre-size 1, size of the whole axis).
auto meshOrderKey(const AxisRef &axis, const Mesh &mesh) {
  int64_t index = static_cast<int64_t>(*mesh.axisIndex(axis.name));
  return std::make_tuple(index, axis.pre(), axis.subSize.value_or(mesh.axisSize(axis.name)));
}

bool canMerge(const AxisRef &major, const AxisRef &minor) {
  if (!major.isSubAxis() || !minor.isSubAxis() || major.name != minor.name)
    return false;
  auto next = checkedMul(major.pre(), *major.subSize);
  return next && *next == minor.pre();
}

/// Walks every axis list of one sharding, remembering what it saw so that
/// duplicates and overlaps across dims, replicated and unreduced are caught.
class AxisUseChecker {
public:
  AxisUseChecker(const Mesh &mesh, std::string pointer)
      : mesh_(mesh), pointer_(std::move(pointer)) {}

  void checkNamesExist(const std::vector<AxisRef> &axes) const {
    for (const AxisRef &axis : axes)
      if (!mesh_.axisIndex(axis.name))
        fail(pointer_, "unknown axis name: \"" + axis.name + "\"");
  }

  void checkList(const std::vector<AxisRef> &axes) {
    checkNamesExist(axes);
    const AxisRef *previous = nullptr;
    for (const AxisRef &axis : axes) {
      if (std::find(seen_.begin(), seen_.end(), axis) != seen_.end())
        fail(pointer_, "duplicate axis ref: " + printAxisRef(axis));
      seen_.push_back(axis);
      if (axis.isSubAxis()) {
        subAxes_[axis.name].push_back(axis);
        if (previous && canMerge(*previous, axis))
          fail(pointer_, "two consecutive sub-axes can be merged: " + printAxisRef(*previous) +
                             ", " + printAxisRef(axis));
      } else {
        fullAxes_.insert(axis.name);
      }
      previous = &axis;
    }
  }

  void checkSortedList(const std::vector<AxisRef> &axes, const std::string &what) {
    checkNamesExist(axes);
    for (size_t i = 1; i < axes.size(); ++i)
      if (meshOrderKey(axes[i], mesh_) < meshOrderKey(axes[i - 1], mesh_))
        fail(pointer_, what + " axes are not ordered w.r.t. mesh");
    checkList(axes);
  }

  void checkSubAxes() const {
    for (const MeshAxis &meshAxis : mesh_.axes) {
      auto it = subAxes_.find(meshAxis.name);
      if (it == subAxes_.end())
        continue;
      if (fullAxes_.count(meshAxis.name))
        fail(pointer_,
             "both sub-axis and full-axis are used for axis name: \"" + meshAxis.name + "\"");
      std::vector<AxisRef> sorted = it->second;
      std::sort(sorted.begin(), sorted.end(), [](const AxisRef &a, const AxisRef &b) {
        return std::make_pair(a.pre(), *a.subSize) < std::make_pair(b.pre(), *b.subSize);
      });
      int64_t previousNextPre = 1;
      const AxisRef *previous = nullptr;
      for (const AxisRef &sub : sorted) {
        checkSubAxis(sub, meshAxis.size);
        if (previousNextPre > sub.pre())
          fail(pointer_,
               "overlapping sub-axes: " + printAxisRef(*previous) + ", " + printAxisRef(sub));
        previousNextPre = sub.pre() * *sub.subSize; // checked in checkSubAxis
        previous = &sub;
      }
    }
  }

private:
  void checkSubAxis(const AxisRef &sub, int64_t axisSize) const {
    const std::string text = printAxisRef(sub);
    if (sub.pre() < 1)
      fail(pointer_, "sub-axis pre-size must be at least 1: " + text);
    if (*sub.subSize <= 1)
      fail(pointer_, "sub-axis sizes must be greater than 1: " + text);
    auto nextPre = checkedMul(sub.pre(), *sub.subSize);
    if (!nextPre || axisSize % *nextPre != 0)
      fail(pointer_, "sub-axis next pre-size " +
                         (nextPre ? std::to_string(*nextPre) : std::string("(overflow)")) +
                         " doesn't divide the size of the full axis " + std::to_string(axisSize) +
                         ": " + text);
    if (*sub.subSize == axisSize)
      fail(pointer_, "sub-axis size is equal to the full axis size: " + text);
  }

  const Mesh &mesh_;
  std::string pointer_;
  std::vector<AxisRef> seen_;
  std::map<std::string, std::vector<AxisRef>> subAxes_;
  std::set<std::string> fullAxes_;
};

} // namespace

const Mesh &lookUpMesh(const TensorSharding &sharding, const Graph &graph,
                       const std::string &pointer) {
  const Mesh *mesh = graph.findMesh(sharding.meshName);
  if (!mesh)
    fail(pointer, "unknown mesh: @" + sharding.meshName);
  return *mesh;
}

void verifyShardingOnMesh(const TensorSharding &sharding, const Mesh &mesh,
                          const std::string &pointer) {
  if (mesh.isMaximal()) {
    bool emptyDims = std::all_of(sharding.dims.begin(), sharding.dims.end(),
                                 [](const DimSharding &dim) { return dim.axes.empty(); });
    if (!emptyDims || !sharding.replicated.empty() || !sharding.unreduced.empty())
      fail(pointer, "a maximal sharding can only have empty dim shardings and no replicated or "
                    "unreduced axes (mesh \"" +
                        mesh.name + "\" is a single device)");
    return;
  }
  AxisUseChecker checker(mesh, pointer);
  for (size_t d = 0; d < sharding.dims.size(); ++d) {
    const DimSharding &dim = sharding.dims[d];
    if (dim.priority && dim.isClosed && dim.axes.empty())
      fail(pointer, "dim " + std::to_string(d) + " is empty and closed but has a priority");
    checker.checkList(dim.axes);
  }
  checker.checkSortedList(sharding.replicated, "replicated");
  checker.checkSortedList(sharding.unreduced, "unreduced");
  checker.checkSubAxes();
}

void verifyShardingRank(const TensorSharding &sharding, const TensorType &type, const Mesh &mesh,
                        const std::string &pointer) {
  if (sharding.rank() == type.rank() || (mesh.isMaximal() && sharding.rank() == 0))
    return;
  fail(pointer, "sharding has " + std::to_string(sharding.rank()) +
                    " dim shardings but the tensor has rank " + std::to_string(type.rank()) + " (" +
                    printType(type) + ")");
}

void verifyNoManualAxes(const TensorSharding &sharding, const ManualScope &scope,
                        const std::string &pointer) {
  auto check = [&](const std::vector<AxisRef> &axes) {
    for (const AxisRef &axis : axes)
      if (const ManualAxisInfo *info = scope.find(axis.name))
        fail(pointer, "operates on axis \"" + axis.name +
                          "\" which is already bound by a parent manual_computation op (at " +
                          info->owner->pointer + ")");
  };
  for (const DimSharding &dim : sharding.dims)
    check(dim.axes);
  check(sharding.replicated);
  check(sharding.unreduced);
}

void verifyShardingInScope(const TensorSharding &sharding, const TensorType &type,
                           const Graph &graph, const std::string &pointer,
                           const ManualScope &scope) {
  const Mesh &mesh = lookUpMesh(sharding, graph, pointer);
  if (!mesh.isMaximal())
    verifyShardingRank(sharding, type, mesh, pointer);
  verifyShardingOnMesh(sharding, mesh, pointer);
  if (mesh.isMaximal())
    verifyShardingRank(sharding, type, mesh, pointer);
  verifyNoManualAxes(sharding, scope, pointer);
}

} // namespace shardgen::verify

namespace shardgen {

void verifySharding(const TensorSharding &sharding, const TensorType &type, const Graph &graph,
                    const std::string &pointer) {
  verify::verifyShardingInScope(sharding, type, graph, pointer, verify::ManualScope{});
}

} // namespace shardgen
