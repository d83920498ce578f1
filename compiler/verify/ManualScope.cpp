#include "compiler/verify/ManualScope.h"

#include <vector>

namespace shardgen::verify {

const Mesh *manualComputationMesh(const Graph &graph, const Op &manualComputation) {
  const auto &attrs = manualComputation.attr<ManualComputationAttrs>();
  if (!attrs.inShardings.empty())
    return graph.findMesh(attrs.inShardings.front().meshName);
  if (!attrs.outShardings.empty())
    return graph.findMesh(attrs.outShardings.front().meshName);
  return nullptr;
}

ManualScope enterBody(const Graph &graph, const ManualScope &outer, const Op &manualComputation) {
  ManualScope inner = outer;
  inner.insideBody = true;
  inner.innermost = &manualComputation;
  const Mesh *mesh = manualComputationMesh(graph, manualComputation);
  if (mesh)
    inner.mesh = mesh;
  for (const auto &axis : manualComputation.attr<ManualComputationAttrs>().manualAxes) {
    ManualAxisInfo info;
    info.owner = &manualComputation;
    if (mesh && mesh->axisIndex(axis))
      info.size = mesh->axisSize(axis);
    inner.manualAxes.emplace(axis, info);
  }
  return inner;
}

/// The region an op belongs to, found through the values it defines or uses.
static const Region *regionOf(const Graph &graph, const Op &op) {
  for (ValueId result : op.results)
    if (graph.value(result).region)
      return graph.value(result).region;
  for (ValueId operand : op.operands)
    if (graph.value(operand).region)
      return graph.value(operand).region;
  return nullptr;
}

ManualScope scopeOf(const Graph &graph, const Op &op) {
  // Collected innermost first, entered outermost first, as the verifier's
  // own traversal would.
  std::vector<const Op *> owners;
  for (const Region *region = regionOf(graph, op); region && region->parentOp;
       region = regionOf(graph, *region->parentOp))
    if (region->parentOp->kind == OpKind::ManualComputation)
      owners.push_back(region->parentOp);
  ManualScope scope;
  for (auto it = owners.rbegin(); it != owners.rend(); ++it)
    scope = enterBody(graph, scope, **it);
  return scope;
}

} // namespace shardgen::verify
