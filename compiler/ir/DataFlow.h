#pragma once
// Values that flow through an op unchanged: Shardy's
// ShardableDataFlowOpInterface. Each of such an op's results is the owner of
// one edge; the edge's sources are the values that become it (an operand, a
// region's returned value) and its other targets the region arguments that
// hold it too (a loop body's argument). Propagation ties them all with one
// identity edge over the sources (Shardy's sdy.data_flow_edge), so they share
// one sharding; the partitioner reshards every source to the owner's.

#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen {

struct DataFlowEdge {
  ValueId owner = -1;           // the op's result
  std::vector<ValueId> sources; // flow into it unchanged
  std::vector<ValueId> targets; // region arguments holding it too (not the owner)
};

/// Whether the op's results are data-flow edges (optimization_barrier),
/// rather than computed by a sharding rule.
bool hasDataFlowEdges(OpKind kind);

/// The op's edges, one per result, in result order; none when
/// !hasDataFlowEdges(op.kind).
std::vector<DataFlowEdge> dataFlowEdges(const Op &op);

} // namespace shardgen
