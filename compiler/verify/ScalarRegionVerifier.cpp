#include "compiler/verify/ScalarRegionVerifier.h"

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

namespace {

/// Ops a scalar body runs per element: the scalar-region evaluator and the
/// generated scalar functions implement exactly these (reduce_precision's
/// format, an attribute, has no place in their steps).
bool runsOnScalars(OpKind kind) {
  return (isPerElement(kind) && kind != OpKind::ReducePrecision) || kind == OpKind::Constant;
}

} // namespace

void checkScalarRegionContents(const Graph &graph, const Region &region, const std::string &what) {
  for (const RegionArgument &arg : region.args) {
    const Value &value = graph.value(arg.value);
    if (value.type && value.type->rank() != 0)
      fail(joinPointer(arg.pointer, "type"), what + " takes scalars (tensors of rank 0), got " +
                                                 printType(*value.type) + " for \"" + value.name +
                                                 "\"");
    if (arg.sharding)
      fail(joinPointer(arg.pointer, "sharding"), what + " holds no shardings");
  }
  for (const Op &op : region.ops) {
    if (!runsOnScalars(op.kind))
      fail(joinPointer(op.pointer, "op"),
           what + " may hold only per-element ops and constants, got " + quotedOpName(op));
    for (size_t i = 0; i < op.shardings.size(); ++i)
      if (op.shardings[i])
        fail(resultShardingPointer(op, i), what + " holds no shardings");
    for (size_t i = 0; i < op.distributions.size(); ++i)
      if (op.distributions[i])
        fail(op.pointer, what + " holds no distributions");
  }
}

void checkScalarRegionResults(const Graph &graph, const Region &region, const std::string &what) {
  for (const Op &op : region.ops)
    for (ValueId result : op.results)
      if (graph.type(result).rank() != 0)
        fail(op.pointer, what + " computes scalars, got " + printType(graph.type(result)) +
                             " from " + quotedOpName(op));
  for (const RegionResult &result : region.results)
    if (graph.type(result.value).rank() != 0)
      fail(result.pointer, what + " returns scalars, got " + printType(graph.type(result.value)));
}

} // namespace shardgen::verify
