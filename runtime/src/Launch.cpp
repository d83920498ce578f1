#include <stdexcept>
#include <string>
#include <vector>

#include "DeviceProgress.h"
#include "DeviceThreads.h"
#include "ThreadsCommunicator.h"
#include "shardgen/launch.h"

namespace shardgen::runtime {

void launch(const DeviceMesh &mesh, const DeviceFunction &function, const LaunchOptions &options) {
  const int64_t numDevices = mesh.numDevices();
  if (numDevices > kMaxThreadsDevices)
    throw std::length_error(
        "the threads backend runs at most " + std::to_string(kMaxThreadsDevices) +
        " devices (one thread each); the mesh has " + std::to_string(numDevices));
  std::vector<int64_t> positions, deviceIds;
  for (int64_t position = 0; position < numDevices; ++position) {
    positions.push_back(position);
    deviceIds.push_back(mesh.deviceId(position));
  }
  DeviceProgress progress(deviceIds);
  ThreadsCommunicator communicator(numDevices, progress, options.stallPositionForTest,
                                   options.cancel);
  std::exception_ptr error =
      runDeviceThreads(mesh, positions, communicator, progress, function, options,
                       [&](const std::exception_ptr &) { communicator.abort(); });
  if (error)
    std::rethrow_exception(error);
}

} // namespace shardgen::runtime
