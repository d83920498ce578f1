#pragma once
// The threads backend: every device of a mesh is a thread of this process.

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>

#include "shardgen/mesh.h"

namespace shardgen::runtime {

using DeviceFunction = std::function<void(const DeviceContext &)>;

struct LaunchOptions {
  /// Ends the run with RunTimeout when it takes longer (0: no limit).
  double timeoutSeconds = 0;
  /// Test only (the watchdog's tests): the device at this mesh position
  /// stalls before its first collective until the run is cancelled. -1: none.
  int64_t stallPositionForTest = -1;
  /// Set to true from anywhere (another thread, a signal handler) to stop
  /// the run: each device stops at its next traced op (traceOp: before each
  /// step that communicates) and launch throws RunCancelled. Null: the run
  /// cannot be cancelled.
  const std::atomic<bool> *cancel = nullptr;
};

/// The run outlived LaunchOptions::timeoutSeconds; what() says what every
/// device was doing (which collective it waited in, for which op).
class RunTimeout : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The run was stopped through LaunchOptions::cancel.
class RunCancelled : public std::runtime_error {
public:
  RunCancelled() : std::runtime_error("the run was cancelled") {}
};

/// The most devices the threads backend runs (one OS thread each).
inline constexpr int64_t kMaxThreadsDevices = 512;

/// Runs `function` once per device of `mesh`, each on its own thread, with
/// collectives between them over shared memory; returns when all are done.
/// Rethrows the first exception a device threw (the other devices' pending
/// collectives are cancelled, so nothing deadlocks). Throws
/// std::length_error for a mesh of more than kMaxThreadsDevices devices.
void launch(const DeviceMesh &mesh, const DeviceFunction &function,
            const LaunchOptions &options = {});

} // namespace shardgen::runtime
