// Planning which elementwise steps fuse (see Fusion.h).

#include <algorithm>
#include <set>

#include "compiler/codegen/Fusion.h"

namespace shardgen::codegen {
namespace {

/// An elementwise op on local pieces whose operands and result have the
/// same local extents on every device (what the fused loop walks).
bool isFusibleStep(const SpmdProgram &program, const SpmdStep &step) {
  if (step.kind != StepKind::Compute || step.bodyCollective || !step.op ||
      !isElementwise(step.op->kind) || step.outputs.size() != 1)
    return false;
  const ShardLayout &result = program.layout(step.outputs[0]);
  if (result.isDistributed()) // computed chunk by chunk, never on padding
    return false;
  for (SpmdValueId input : step.inputs) {
    const ShardLayout &operand = program.layout(input);
    if (operand.isDistributed() || !samePieceShapes(operand, result) ||
        operand.globalType.elementType != result.globalType.elementType)
      return false;
  }
  return true;
}

} // namespace

bool FusionPlan::isFusedIntoLater(size_t index) const {
  int64_t group = groupOfStep[index];
  return group >= 0 && groups[group].root() != index;
}

const FusedGroup *FusionPlan::groupRootedAt(size_t index) const {
  int64_t group = groupOfStep[index];
  return group >= 0 && groups[group].root() == index ? &groups[group] : nullptr;
}

size_t FusionPlan::emissionStep(size_t index) const {
  int64_t group = groupOfStep[index];
  return group >= 0 ? groups[group].root() : index;
}

FusionPlan planFusion(const SpmdProgram &program) {
  const size_t numSteps = program.steps.size();
  const size_t numValues = program.values.size();
  std::vector<int64_t> definer(numValues, -1);
  std::vector<std::set<size_t>> consumers(numValues);
  std::vector<bool> isOutput(numValues, false);
  for (size_t s = 0; s < numSteps; ++s) {
    for (SpmdValueId v : program.steps[s].outputs)
      definer[v] = static_cast<int64_t>(s);
    for (SpmdValueId v : program.steps[s].inputs)
      consumers[v].insert(s);
  }
  for (SpmdValueId v : program.liveOutValues())
    isOutput[v] = true;

  // consumerOf[s]: the step s is fused into (its result's only consumer).
  std::vector<int64_t> consumerOf(numSteps, -1);
  std::vector<bool> fusible(numSteps);
  for (size_t s = 0; s < numSteps; ++s)
    fusible[s] = isFusibleStep(program, program.steps[s]);
  for (size_t t = 0; t < numSteps; ++t) {
    if (!fusible[t])
      continue;
    for (SpmdValueId v : program.steps[t].inputs) {
      int64_t s = definer[v];
      if (s < 0 || !fusible[s] || isOutput[v] || consumers[v].size() != 1)
        continue;
      consumerOf[s] = static_cast<int64_t>(t);
    }
  }

  FusionPlan plan;
  plan.groupOfStep.assign(numSteps, -1);
  plan.fusedAway.assign(numValues, false);
  // Consumers come later than producers, so walking backwards meets each
  // root before its members. A step whose consumer's group is full roots a
  // new group.
  for (size_t s = numSteps; s-- > 0;) {
    if (consumerOf[s] >= 0 &&
        plan.groups[plan.groupOfStep[consumerOf[s]]].steps.size() < kMaxFusedGroupSteps) {
      int64_t group = plan.groupOfStep[consumerOf[s]];
      plan.groupOfStep[s] = group;
      plan.groups[group].steps.push_back(s);
      plan.fusedAway[program.steps[s].outputs[0]] = true;
    } else if (fusible[s]) {
      plan.groupOfStep[s] = static_cast<int64_t>(plan.groups.size());
      plan.groups.push_back(FusedGroup{{s}});
    }
  }
  // Keep only real groups (two or more steps), steps in program order.
  std::vector<FusedGroup> groups;
  std::vector<int64_t> renumbered(plan.groups.size(), -1);
  for (size_t g = plan.groups.size(); g-- > 0;) {
    if (plan.groups[g].steps.size() < 2)
      continue;
    renumbered[g] = static_cast<int64_t>(groups.size());
    FusedGroup group = plan.groups[g];
    std::sort(group.steps.begin(), group.steps.end());
    groups.push_back(std::move(group));
  }
  for (int64_t &group : plan.groupOfStep)
    group = group >= 0 ? renumbered[group] : -1;
  plan.groups = std::move(groups);
  auto isFusible = [&](size_t s) { return static_cast<bool>(fusible[s]); };
  fuseBroadcasts(program, plan, isFusible);
  fuseDotEpilogues(program, plan, isFusible);
  return plan;
}

} // namespace shardgen::codegen
