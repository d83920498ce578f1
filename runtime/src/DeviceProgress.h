#pragma once
// What each device of a threads-backend run is doing (computing, waiting in
// a collective for an op, finished), so a watchdog can say where a run is
// stuck instead of hanging.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace shardgen::runtime {

class DeviceProgress {
public:
  /// `deviceIds[position - firstPosition]`: the id reports name a device by
  /// (a rank of the MPI backend tracks only its block of positions).
  explicit DeviceProgress(std::vector<int64_t> deviceIds, int64_t firstPosition = 0);

  void noteOp(int64_t position, const char *pointer);
  void noteCollective(int64_t position, const char *collective);
  void noteFinished(int64_t position);

  /// "device 1 waits in all_reduce for /ops/3; devices 0, 2-3 have finished":
  /// devices grouped by what they do, in order of first appearance.
  std::string describe() const;

private:
  struct Status {
    std::atomic<const char *> op{nullptr};
    std::atomic<const char *> collective{nullptr};
    std::atomic<bool> finished{false};
  };
  std::vector<int64_t> deviceIds_;
  int64_t firstPosition_ = 0;
  std::unique_ptr<Status[]> statuses_;
};

} // namespace shardgen::runtime
