// broadcast_in_dim fused into the elementwise loop that consumes it (see
// Fusion.h): the loop reads the operand through an index map instead of a
// materialized broadcast.

#include <algorithm>

#include "compiler/codegen/Fusion.h"

namespace shardgen::codegen {
namespace {

/// The result dims a broadcast's operand covers (not expanded from 1), if
/// every device's pieces agree with that (operand dims in order, each of the
/// result piece's extent or expanded from 1).
std::optional<std::vector<int64_t>> coveredDims(const SpmdProgram &program, const SpmdStep &step) {
  const std::vector<int64_t> &dims = step.op->attr<BroadcastInDimAttrs>().broadcastDimensions;
  if (!std::is_sorted(dims.begin(), dims.end()))
    return std::nullopt;
  const ShardLayout &in = program.layout(step.inputs[0]), &out = program.layout(step.outputs[0]);
  std::vector<int64_t> covered;
  for (size_t j = 0; j < dims.size(); ++j)
    if (in.globalType.shape[j] == out.globalType.shape[dims[j]])
      covered.push_back(dims[j]);
  for (int64_t d = 0; d < program.mesh.numDevices(); ++d) {
    const Shape inPiece = in.extentsOf(d), outPiece = out.extentsOf(d);
    for (size_t j = 0; j < dims.size(); ++j) {
      const bool isCovered = std::count(covered.begin(), covered.end(), dims[j]) > 0;
      if (isCovered ? inPiece[j] != outPiece[dims[j]] : inPiece[j] != 1)
        return std::nullopt;
    }
  }
  return covered;
}

} // namespace

std::optional<BroadcastRead> fusibleBroadcast(const SpmdProgram &program, const SpmdStep &step) {
  if (step.kind != StepKind::Compute || !step.op || step.op->kind != OpKind::BroadcastInDim ||
      step.outputs.size() != 1 || step.inputs.size() != 1)
    return std::nullopt;
  const ShardLayout &in = program.layout(step.inputs[0]), &out = program.layout(step.outputs[0]);
  if (in.isDistributed() || out.isDistributed() ||
      in.globalType.elementType != out.globalType.elementType)
    return std::nullopt;
  std::optional<std::vector<int64_t>> covered = coveredDims(program, step);
  if (!covered)
    return std::nullopt;
  const int64_t rank = out.rank(), n = static_cast<int64_t>(covered->size());
  if (n == 0)
    return BroadcastRead{BroadcastRead::Scalar, -1};
  // Covered dims are consecutive (sorted and distinct): a suffix or a prefix.
  if (covered->back() - covered->front() + 1 != n)
    return std::nullopt;
  if (covered->back() == rank - 1)
    return BroadcastRead{BroadcastRead::Inner, covered->front()};
  if (covered->front() == 0)
    return BroadcastRead{BroadcastRead::Outer, n};
  return std::nullopt;
}

void fuseBroadcasts(const SpmdProgram &program, FusionPlan &plan,
                    const std::function<bool(size_t)> &isFusible) {
  const SoleReaders soleReaders(program);
  for (size_t b = 0; b < program.steps.size(); ++b) {
    const SpmdStep &step = program.steps[b];
    std::optional<BroadcastRead> read = fusibleBroadcast(program, step);
    std::optional<size_t> reader = read ? soleReaders.of(step.outputs[0]) : std::nullopt;
    if (!reader || !isFusible(*reader))
      continue;
    const size_t consumer = *reader;
    int64_t group = plan.groupOfStep[consumer];
    if (group < 0) { // the consumer alone so far: a group of the two
      group = static_cast<int64_t>(plan.groups.size());
      plan.groups.push_back(FusedGroup{{consumer}});
      plan.groupOfStep[consumer] = group;
    }
    FusedGroup &fused = plan.groups[group];
    if (read->kind != BroadcastRead::Scalar) {
      if (fused.split >= 0 && fused.split != read->split)
        continue; // one loop nest per group: its split must suit every read
      fused.split = read->split;
    }
    fused.steps.insert(std::lower_bound(fused.steps.begin(), fused.steps.end(), b), b);
    plan.groupOfStep[b] = group;
    plan.fusedAway[step.outputs[0]] = true;
  }
}

} // namespace shardgen::codegen
