#include "compiler/ir/DataFlow.h"

namespace shardgen {

bool hasDataFlowEdges(OpKind kind) { return opCategory(kind) == OpCategory::DataFlow; }

std::vector<DataFlowEdge> dataFlowEdges(const Op &op) {
  std::vector<DataFlowEdge> edges;
  if (!hasDataFlowEdges(op.kind))
    return edges;
  for (size_t i = 0; i < op.results.size(); ++i) {
    DataFlowEdge edge;
    edge.owner = op.results[i];
    if (op.kind == OpKind::While) {
      // Shardy's WhileOp: the operand and the body's returned value flow
      // into the result; the cond's and body's arguments hold it too.
      if (i < op.operands.size())
        edge.sources.push_back(op.operands[i]);
      for (size_t r = 0; r < op.regions.size(); ++r) {
        const Region &region = op.regions[r];
        if (r == 1 && i < region.results.size())
          edge.sources.push_back(region.results[i].value);
        if (i < region.args.size())
          edge.targets.push_back(region.args[i].value);
      }
    } else if (op.kind == OpKind::Case || op.kind == OpKind::If) {
      // Shardy's CaseOp/IfOp: each branch's returned value flows into it.
      for (const Region &branch : op.regions)
        if (i < branch.results.size())
          edge.sources.push_back(branch.results[i].value);
    } else if (i < op.operands.size()) {
      // An op without regions passes operand i through as result i
      // (optimization_barrier).
      edge.sources.push_back(op.operands[i]);
    }
    edges.push_back(std::move(edge));
  }
  return edges;
}

} // namespace shardgen
