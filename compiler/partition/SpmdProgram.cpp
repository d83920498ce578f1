#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

std::string_view stepKindName(StepKind kind) {
  switch (kind) {
  case StepKind::Compute:
    return "compute";
  case StepKind::AllSlice:
    return "all_slice";
  case StepKind::AllGather:
    return "all_gather";
  case StepKind::AllToAll:
    return "all_to_all";
  case StepKind::CollectivePermute:
    return "collective_permute";
  case StepKind::AllReduce:
  case StepKind::RegionAllReduce:
    return "all_reduce";
  case StepKind::ReduceScatter:
    return "reduce_scatter";
  case StepKind::Broadcast:
    return "broadcast";
  case StepKind::Alias:
    return "alias";
  case StepKind::Redistribute:
    return "redistribute";
  case StepKind::Loop:
    return "loop";
  case StepKind::Branch:
    return "branch";
  }
  return "?";
}

std::string_view stepTitle(const SpmdProgram &program, const SpmdStep &step) {
  if (step.kind == StepKind::Redistribute && !step.outputs.empty() &&
      program.layout(step.outputs[0]).hasHalo())
    return "halo_exchange";
  return stepKindName(step.kind);
}

} // namespace shardgen
