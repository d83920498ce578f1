#include "DeviceThreads.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "shardgen/communicator.h"
#include "shardgen/mesh.h"

namespace shardgen::runtime {
namespace {

/// Waits until every device has finished or the time is up; then reports
/// where the devices are as a RunTimeout and cancels their collectives.
class Watchdog {
public:
  Watchdog(double seconds, int64_t numDevices) : seconds_(seconds), running_(numDevices) {}

  void deviceFinished() {
    std::lock_guard lock(mutex_);
    if (--running_ == 0)
      allFinished_.notify_all();
  }

  /// Runs on its own thread; calls `timedOut(message)` if time runs out.
  template <typename OnTimeout> void watch(const DeviceProgress &progress, OnTimeout timedOut) {
    std::unique_lock lock(mutex_);
    auto limit = std::chrono::duration<double>(seconds_);
    if (allFinished_.wait_for(lock, limit, [&] { return running_ == 0; }))
      return;
    lock.unlock();
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", seconds_);
    timedOut("the run did not finish within the timeout of " + std::string(seconds) +
             " s: " + progress.describe());
  }

private:
  const double seconds_;
  std::mutex mutex_;
  std::condition_variable allFinished_;
  int64_t running_;
};

} // namespace

std::exception_ptr runDeviceThreads(const DeviceMesh &mesh, const std::vector<int64_t> &positions,
                                    Communicator &communicator, DeviceProgress &progress,
                                    const DeviceFunction &function, const LaunchOptions &options,
                                    const FailureHandler &failed) {
  const auto numDevices = static_cast<int64_t>(positions.size());
  std::vector<DeviceContext> contexts;
  contexts.reserve(numDevices);
  for (int64_t position : positions)
    contexts.push_back(mesh.deviceContext(position, &communicator));

  std::mutex errorMutex;
  std::exception_ptr firstError;
  auto recordFailure = [&](const std::exception_ptr &error) {
    {
      std::lock_guard lock(errorMutex);
      if (firstError)
        return;
      firstError = error;
    }
    failed(error); // peers blocked in collectives must not wait forever
  };
  Watchdog watchdog(options.timeoutSeconds, numDevices);
  auto runDevice = [&](int64_t local) {
    try {
      function(contexts[local]);
      // NOLINTNEXTLINE(bugprone-empty-catch): the failing device reports, not its peers
    } catch (const PeerFailure &) {
      // Cancelled because another device failed; that device reports.
    } catch (...) {
      recordFailure(std::current_exception());
    }
    progress.noteFinished(positions[local]);
    watchdog.deviceFinished();
  };

  std::thread watching;
  if (options.timeoutSeconds > 0)
    watching = std::thread([&] {
      watchdog.watch(progress, [&](const std::string &message) {
        recordFailure(std::make_exception_ptr(RunTimeout(message)));
      });
    });
  std::vector<std::thread> threads;
  threads.reserve(numDevices - 1);
  bool allStarted = true;
  try {
    for (int64_t local = 1; local < numDevices; ++local)
      threads.emplace_back(runDevice, local);
  } catch (...) {
    allStarted = false;
    recordFailure(std::current_exception()); // could not start a thread
    // Devices never started, the first among them.
    for (auto k = static_cast<int64_t>(threads.size()); k < numDevices; ++k)
      watchdog.deviceFinished();
  }
  if (allStarted)
    runDevice(0); // the calling thread runs the first device
  for (std::thread &thread : threads)
    thread.join();
  if (watching.joinable())
    watching.join();
  return firstError;
}

} // namespace shardgen::runtime
