#pragma once
// The communication manifest: what a partitioned program will send between
// devices and how much buffer memory each device needs, computed from the
// SpmdProgram alone, before anything runs (`shardgen compile --report`).

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

struct CollectiveRecord {
  size_t step = 0; // index into SpmdProgram::steps (of the loop or branch holding it)
  /// The communication step itself (a step of a loop's or branch's block
  /// runs once per iteration or when its case is taken).
  const SpmdStep *collective = nullptr;
  std::string pointer; // JSON pointer of the op (or input/output) it serves
  StepKind kind = StepKind::AllReduce;
  std::vector<AxisRef> axes;
  std::vector<DeviceTraffic> traffic; // per mesh position, exact bytes
};

struct CommunicationManifest {
  std::vector<CollectiveRecord> collectives; // in program order
  /// Per mesh position: the most bytes of buffers live at once (a buffer
  /// lives from the step defining it to its last use; outputs to the end).
  std::vector<int64_t> peakBufferBytes;
};

CommunicationManifest computeManifest(const SpmdProgram &program);

/// The moment the devices together hold the most buffer bytes (the threads
/// backend runs every device in one process): those bytes (saturating at
/// INT64_MAX) and the value with the most bytes live then (-1: none).
struct MeshMemoryPeak {
  int64_t bytes = 0;
  SpmdValueId largest = -1;
};
MeshMemoryPeak meshPeakBufferBytes(const SpmdProgram &program);

/// A readable table: one line per collective with the bytes each device
/// sends and receives, then each device's peak buffer memory.
std::string formatManifest(const CommunicationManifest &manifest, const SpmdProgram &program);

/// Axes as Shardy writes them in a sharding: {"x", "y":(1)2}.
std::string axesText(const std::vector<AxisRef> &axes);

} // namespace shardgen
