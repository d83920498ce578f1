// `shardgen explain` for distributions: the chain of ops a distribution
// crossed back to the user's, or what kept a value from being distributed.

#include <set>
#include <sstream>

#include "compiler/propagate/DistributionSpread.h"

namespace shardgen::propagation {

namespace {

void explainDistributed(const Graph &graph, const DistributionSpread &spread, ValueId value,
                        std::ostringstream &out) {
  out << "value " << quotedValueName(graph, value) << ": distribution "
      << printDistribution(*spread.distributions[value]) << "\n";
  out << "origin:\n";
  std::set<ValueId> seen;
  for (ValueId v = value; v >= 0 && seen.insert(v).second;) {
    const DistributionSource &source = spread.sources[v];
    out << "  " << quotedValueName(graph, v) << " " << printDistribution(*spread.distributions[v])
        << ": ";
    if (source.kind == DistributionSource::Kind::User) {
      out << "user distribution at " << source.pointer << "\n";
      break;
    }
    const Op *op = nullptr;
    walkOps(graph.main, [&](const Op &candidate) {
      if (candidate.pointer == source.pointer)
        op = &candidate;
    });
    out << "spread through " << (op ? std::string(op->name()) + " " : "") << source.pointer
        << " from " << quotedValueName(graph, source.from) << "\n";
    v = source.from;
  }
  out << "Shardy propagation treats it as closed: it neither gives nor takes axes\n";
}

void explainNotDistributed(const Graph &graph, const DistributionSpread &spread, ValueId value,
                           std::ostringstream &out) {
  out << "not distributed:\n";
  const Value &target = graph.value(value);
  if (target.region != &graph.main) {
    out << "  - it is inside a manual_computation body, where nothing is distributed\n";
    return;
  }
  if (!spread.pinnedBy[value].empty()) {
    out << "  - a user sharding reaches it first (" << spread.pinnedBy[value] << ")\n";
    return;
  }
  if (target.definingOp && target.definingOp->kind == OpKind::Constant) {
    out << "  - a constant joins distributed ops as it is\n";
    return;
  }
  std::set<const Op *> ops;
  if (target.definingOp)
    ops.insert(target.definingOp);
  Uses uses = computeUses(graph);
  ops.insert(uses.users[value].begin(), uses.users[value].end());
  bool any = false;
  walkOps(graph.main, [&](const Op &op) { // program order
    if (!ops.count(&op))
      return;
    std::string reason = whyNotThrough(graph, spread, op, value);
    if (!reason.empty()) {
      out << "  - " << reason << "\n";
      any = true;
    }
  });
  if (!any)
    out << "  - no distributed value reaches it\n";
}

} // namespace

std::string explainDistribution(const Graph &graph, const DistributionSpread &spread,
                                ValueId value) {
  std::ostringstream out;
  if (spread.distributions[value])
    explainDistributed(graph, spread, value, out);
  else
    explainNotDistributed(graph, spread, value, out);
  return out.str();
}

} // namespace shardgen::propagation
