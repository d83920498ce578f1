#pragma once
// What the enclosing manual computations of a region have made manual: each
// manual axis, its size, and the manual_computation that owns it. Collectives
// and shardings inside a body are checked against it.

#include <map>
#include <optional>
#include <string>

#include "compiler/ir/Graph.h"

namespace shardgen::verify {

struct ManualAxisInfo {
  int64_t size = 1;
  const Op *owner = nullptr; // the manual_computation making the axis manual
};

struct ManualScope {
  bool insideBody = false;
  const Mesh *mesh = nullptr;    // the innermost enclosing manual_computation's mesh
  const Op *innermost = nullptr; // the innermost enclosing manual_computation
  std::map<std::string, ManualAxisInfo> manualAxes;

  const ManualAxisInfo *find(const std::string &axis) const {
    auto it = manualAxes.find(axis);
    return it == manualAxes.end() ? nullptr : &it->second;
  }
};

/// The mesh every in/out sharding of a manual_computation refers to, or null
/// when it has none. Assumes the shardings were checked to share one mesh.
const Mesh *manualComputationMesh(const Graph &graph, const Op &manualComputation);

/// The scope inside the body of `manualComputation`: `outer` plus the
/// manual_computation's own manual axes.
ManualScope enterBody(const Graph &graph, const ManualScope &outer, const Op &manualComputation);

/// The scope an op lives in, found by walking up its region's owners (for
/// callers outside the verifier's own traversal).
ManualScope scopeOf(const Graph &graph, const Op &op);

} // namespace shardgen::verify
