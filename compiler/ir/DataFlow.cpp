#include "compiler/ir/DataFlow.h"

namespace shardgen {

bool hasDataFlowEdges(OpKind kind) { return opCategory(kind) == OpCategory::DataFlow; }

std::vector<DataFlowEdge> dataFlowEdges(const Op &op) {
  std::vector<DataFlowEdge> edges;
  if (!hasDataFlowEdges(op.kind))
    return edges;
  // An op without regions passes operand i through as result i
  // (optimization_barrier). Ops whose values flow through their regions
  // (while: operand, body return -> result, body and cond arguments; case:
  // each branch's return -> result) add their shape here.
  for (size_t i = 0; i < op.results.size(); ++i) {
    DataFlowEdge edge;
    edge.owner = op.results[i];
    if (i < op.operands.size())
      edge.sources.push_back(op.operands[i]);
    edges.push_back(std::move(edge));
  }
  return edges;
}

} // namespace shardgen
