// A dot's elementwise consumer fused into its epilogue (see Fusion.h): the
// group's loop body runs on each tile of the product right after the dot
// adds its last depth block, instead of over a stored product later.

#include "compiler/codegen/Fusion.h"

namespace shardgen::codegen {
namespace {

/// The number of the dot result's dims before its rhs free dims (batch and
/// lhs free): a group split there reads a bias at the product's column.
int64_t rowDims(const SpmdProgram &program, const SpmdStep &dot) {
  const auto &attrs = dot.op->attr<DotGeneralAttrs>();
  const int64_t rhsRank = program.layout(dot.inputs[1]).rank();
  return program.layout(dot.outputs[0]).rank() -
         static_cast<int64_t>(dotGeneralFreeDims(rhsRank, attrs.rhsBatchingDimensions,
                                                 attrs.rhsContractingDimensions)
                                  .size());
}

/// Whether every read of `group` has an index the epilogue knows (the
/// element, its column, or one element): no per-row broadcast, and a bias
/// covers exactly the product's columns.
bool epilogueReads(const SpmdProgram &program, const FusedGroup &group, int64_t columnsFrom) {
  for (size_t index : group.steps) {
    const SpmdStep &step = program.steps[index];
    if (step.op->kind != OpKind::BroadcastInDim)
      continue;
    const BroadcastRead read = *fusibleBroadcast(program, step);
    if (read.kind == BroadcastRead::Outer ||
        (read.kind == BroadcastRead::Inner && read.split != columnsFrom))
      return false;
  }
  return true;
}

} // namespace

void fuseDotEpilogues(const SpmdProgram &program, FusionPlan &plan,
                      const std::function<bool(size_t)> &isFusible) {
  const SoleReaders soleReaders(program);
  for (size_t d = 0; d < program.steps.size(); ++d) {
    const SpmdStep &dot = program.steps[d];
    if (dot.kind != StepKind::Compute || !dot.op || dot.op->kind != OpKind::DotGeneral ||
        dot.outputs.size() != 1 || program.layout(dot.outputs[0]).isDistributed())
      continue;
    const SpmdValueId product = dot.outputs[0];
    std::optional<size_t> reader = soleReaders.of(product);
    if (!reader || !isFusible(*reader))
      continue;
    const size_t consumer = *reader;
    int64_t group = plan.groupOfStep[consumer];
    if (group >= 0 && plan.groups[group].dotEpilogue)
      continue; // one dot per epilogue: another dot's product is read stored

    FusedGroup candidate = group >= 0 ? plan.groups[group] : FusedGroup{{consumer}};
    if (!epilogueReads(program, candidate, rowDims(program, dot)))
      continue;
    if (group < 0) {
      group = static_cast<int64_t>(plan.groups.size());
      plan.groups.push_back(candidate);
      plan.groupOfStep[consumer] = group;
    }
    plan.groups[group].steps.insert(plan.groups[group].steps.begin(), d); // before every member
    plan.groups[group].dotEpilogue = true;
    plan.groupOfStep[d] = group;
    plan.fusedAway[product] = true;
  }
}

} // namespace shardgen::codegen
