#include "compiler/partition/CollectiveTraffic.h"

#include "compiler/partition/Redistribution.h"

namespace shardgen {

bool isCommunication(StepKind kind) {
  switch (kind) {
  case StepKind::AllGather:
  case StepKind::AllToAll:
  case StepKind::CollectivePermute:
  case StepKind::AllReduce:
  case StepKind::RegionAllReduce:
  case StepKind::ReduceScatter:
  case StepKind::Broadcast:
  case StepKind::Redistribute:
    return true;
  case StepKind::Compute:
  case StepKind::AllSlice:
  case StepKind::Alias:
  case StepKind::Loop: // their blocks' steps may communicate
  case StepKind::Branch:
    return false;
  }
  return false;
}

std::vector<DeviceTraffic> stepTraffic(const Mesh &mesh, const SpmdStep &step,
                                       const ShardLayout &input, const ShardLayout &output) {
  int64_t numDevices = mesh.numDevices();
  std::vector<DeviceTraffic> traffic(numDevices);
  if (!isCommunication(step.kind))
    return traffic;
  if (step.kind == StepKind::Redistribute) {
    RedistributionTraffic moved = redistributionTraffic(mesh, input, output);
    for (int64_t device = 0; device < numDevices; ++device)
      traffic[device] = DeviceTraffic{moved.sent[device], moved.received[device]};
    return traffic;
  }
  if (step.kind == StepKind::CollectivePermute) {
    for (auto [source, target] : step.pairs) {
      if (source == target)
        continue;
      traffic[source].sent += localBytes(input, source);
      traffic[target].received += localBytes(input, source);
    }
    return traffic;
  }
  int64_t groupSize = axesSize(mesh, step.axes);
  // Each group's total input bytes, at its leader (what an all_gather
  // member receives is that minus its own): linear in the devices.
  std::vector<int64_t> leaders(numDevices), groupBytes(numDevices, 0);
  for (int64_t device = 0; device < numDevices; ++device) {
    leaders[device] = groupLeader(mesh, step.axes, device);
    groupBytes[leaders[device]] += localBytes(input, device);
  }
  for (int64_t device = 0; device < numDevices; ++device) {
    int64_t in = localBytes(input, device), out = localBytes(output, device);
    int64_t position = indexOverAxes(mesh, step.axes, device);
    DeviceTraffic &mine = traffic[device];
    switch (step.kind) {
    case StepKind::AllGather:
      mine.sent = in * (groupSize - 1);
      mine.received = groupBytes[leaders[device]] - in;
      break;
    case StepKind::AllReduce:
    case StepKind::RegionAllReduce: // per value; an all_gather of equal pieces
      mine.sent = mine.received = in * (groupSize - 1);
      break;
    case StepKind::ReduceScatter:
      // Every member's chunk of my buffer goes to that member.
      mine.sent = in - out;
      mine.received = out * (groupSize - 1);
      break;
    case StepKind::AllToAll:
      mine.sent = in - in / groupSize;
      mine.received = out - in / groupSize;
      break;
    case StepKind::Broadcast:
      if (position == 0)
        mine.sent = in * (groupSize - 1);
      else
        mine.received = localBytes(input, leaders[device]);
      break;
    default:
      break;
    }
  }
  return traffic;
}

std::vector<DeviceTraffic> stepTraffic(const SpmdProgram &program, const SpmdStep &step) {
  std::vector<DeviceTraffic> traffic = stepTraffic(
      program.mesh, step, program.layout(step.inputs[0]), program.layout(step.outputs[0]));
  if (step.kind != StepKind::RegionAllReduce)
    return traffic;
  for (size_t i = 1; i < step.inputs.size(); ++i) {
    std::vector<DeviceTraffic> more = stepTraffic(
        program.mesh, step, program.layout(step.inputs[i]), program.layout(step.outputs[i]));
    for (size_t device = 0; device < traffic.size(); ++device) {
      traffic[device].sent += more[device].sent;
      traffic[device].received += more[device].received;
    }
  }
  return traffic;
}

} // namespace shardgen
