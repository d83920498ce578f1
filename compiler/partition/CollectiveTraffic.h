#pragma once
// Bytes a communication step sends and receives on each device, under the
// direct-exchange model: a device sends each group member exactly the data
// that member needs from it (all_reduce: its whole buffer to every other
// member). Exact for uneven pieces: every count comes from the layouts.

#include <cstdint>
#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

struct DeviceTraffic {
  int64_t sent = 0;
  int64_t received = 0;
};

/// True for the steps that move data between devices.
bool isCommunication(StepKind kind);

/// Per device (mesh position): the bytes `step` sends and receives. `input`
/// and `output` are the layouts of its (first) input and output.
std::vector<DeviceTraffic> stepTraffic(const Mesh &mesh, const SpmdStep &step,
                                       const ShardLayout &input, const ShardLayout &output);
/// The same for a step of `program`, over all its values (a RegionAllReduce
/// moves each of its inputs).
std::vector<DeviceTraffic> stepTraffic(const SpmdProgram &program, const SpmdStep &step);

} // namespace shardgen
