#pragma once
// Runs a set of a mesh's devices as threads of this process: the threads
// backend runs them all, a rank of the MPI backend its block of them. The
// first failure (or the watchdog's timeout) goes to a handler that must make
// every pending collective give up (cancel them, or end the process).

#include <exception>
#include <functional>
#include <vector>

#include "DeviceProgress.h"
#include "shardgen/launch.h"

namespace shardgen::runtime {

using FailureHandler = std::function<void(std::exception_ptr)>;

/// Runs `function` for the devices at `positions` of `mesh` (the first on
/// the calling thread), bound to `communicator`, reporting to `progress`;
/// with a watchdog when `options` sets a timeout. `failed` is called once,
/// with the first exception a device threw (PeerFailure is not one) or the
/// RunTimeout. Returns that exception (null when every device succeeded).
std::exception_ptr runDeviceThreads(const DeviceMesh &mesh, const std::vector<int64_t> &positions,
                                    Communicator &communicator, DeviceProgress &progress,
                                    const DeviceFunction &function, const LaunchOptions &options,
                                    const FailureHandler &failed);

} // namespace shardgen::runtime
