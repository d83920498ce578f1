#include "compiler/ir/ControlFlow.h"

#include <unordered_set>

namespace shardgen {

bool isControlFlow(OpKind kind) {
  return kind == OpKind::While || kind == OpKind::Case || kind == OpKind::If;
}

namespace {

struct CaptureWalk {
  std::unordered_set<ValueId> defined, seen;
  std::vector<ValueId> captured;

  void read(ValueId v) {
    if (!defined.count(v) && seen.insert(v).second)
      captured.push_back(v);
  }

  // Values are defined before they are read (SSA, regions in order), so a
  // value not yet defined when read is defined outside.
  void walk(const Region &region) {
    for (const RegionArgument &arg : region.args)
      defined.insert(arg.value);
    for (const Op &op : region.ops) {
      for (ValueId v : op.operands)
        read(v);
      for (const Region &inner : op.regions)
        walk(inner);
      for (ValueId v : op.results)
        defined.insert(v);
    }
    for (const RegionResult &result : region.results)
      read(result.value);
  }
};

} // namespace

std::vector<ValueId> capturedValues(const Op &op) {
  if (!isControlFlow(op.kind))
    return {};
  CaptureWalk walk;
  for (const Region &region : op.regions)
    walk.walk(region);
  return walk.captured;
}

} // namespace shardgen
