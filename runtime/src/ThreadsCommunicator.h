#pragma once
// The threads backend's collectives: each device publishes pointers to its
// buffers in its group's slots, the group meets at a barrier, then every
// device reads its peers' buffers directly (each byte moves once) and a
// second barrier keeps the buffers alive until all readers are done.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "DeviceProgress.h"
#include "GroupBarrier.h"
#include "shardgen/communicator.h"

namespace shardgen::runtime {

class ThreadsCommunicator final : public Communicator {
public:
  /// Reports what each device does to `progress` (by mesh position).
  /// The device at `stallPosition` (test only; -1: none) stalls at its first
  /// noteOp, before its first collective, until abort().
  ThreadsCommunicator(int64_t numDevices, DeviceProgress &progress, int64_t stallPosition = -1);

  /// Cancels every pending and future collective (they throw PeerFailure).
  void abort();

  void allReduce(const DeviceContext &device, const CollectiveGroup &group, ElementType type,
                 Reducer reducer, const void *in, void *out, int64_t count) override;
  void allGather(const DeviceContext &device, const CollectiveGroup &group, const ChunkCopy &gather,
                 const void *in, void *out) override;
  void reduceScatter(const DeviceContext &device, const CollectiveGroup &group, ElementType type,
                     Reducer reducer, DimView inLayout, const void *in, void *out) override;
  void allToAll(const DeviceContext &device, const CollectiveGroup &group,
                const ChunkCopy &exchange, const void *in, void *out) override;
  void collectivePermute(const DeviceContext &device, const CollectiveGroup &group, int64_t source,
                         int64_t destination, const void *in, void *out, int64_t bytes) override;
  void barrier(const DeviceContext &device) override;
  void exchange(const DeviceContext &device, const CollectiveGroup &group, const void *send,
                const int64_t *sendOffsets, void *recv, const int64_t *recvOffsets) override;
  void noteOp(const DeviceContext &device, const char *pointer) override;
  void noteCollective(const DeviceContext &device, const char *collective) override;

private:
  struct Member {
    const void *in = nullptr;
    void *out = nullptr;
    int64_t size = 0; // elements or bytes, as the collective counts
  };
  struct Group {
    Group(int64_t size, const std::atomic<bool> &aborted, bool spinFirst)
        : barrier(size, aborted, spinFirst), members(size) {}
    GroupBarrier barrier;
    std::vector<Member> members; // by group position
  };
  struct GroupSet {
    std::vector<std::unique_ptr<Group>> groups; // by group index
  };
  struct DeviceState {
    std::vector<std::pair<uint64_t, GroupSet *>> groupSets; // this device's cache
    std::vector<const void *> sources;                      // reduction scratch
    std::vector<void *> destinations;                       // fused all-gather scratch
  };

  /// Publishes this device's buffers in its group and waits for the others.
  Group &publish(const DeviceContext &device, const CollectiveGroup &group, const void *in,
                 void *out, int64_t size, const char *collective);
  GroupSet &groupSetFor(const DeviceContext &device, const CollectiveGroup &group);

  const int64_t numDevices_;
  const bool spinFirst_;
  const int64_t stallPosition_;
  DeviceProgress &progress_;
  std::atomic<bool> aborted_{false};
  GroupBarrier meshBarrier_;
  std::mutex registryMutex_; // guards registry_ (lookups go through DeviceState)
  std::map<uint64_t, std::unique_ptr<GroupSet>> registry_;
  std::vector<DeviceState> devices_; // by position, each touched by its own thread only
};

} // namespace shardgen::runtime
