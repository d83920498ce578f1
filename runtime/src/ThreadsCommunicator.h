#pragma once
// The threads backend's collectives: each device publishes pointers to its
// buffers in its group's slots, the group meets at a barrier, then every
// device reads its peers' buffers directly (each byte moves once) and a
// second barrier keeps the buffers alive until all readers are done.
// Small all_reduce and all_gather copy their input into the communicator's
// staging buffers first and need no second barrier; collective_permute only
// synchronizes each sender with its receiver (PairHandoff.h).

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "DeviceProgress.h"
#include "GroupBarrier.h"
#include "PairHandoff.h"
#include "shardgen/communicator.h"

namespace shardgen::runtime {

class ThreadsCommunicator final : public Communicator {
public:
  /// Reports what each device does to `progress` (by mesh position).
  /// The device at `stallPosition` (test only; -1: none) stalls at its first
  /// noteOp, before its first collective, until abort() or `cancel`. Once
  /// `cancel` (may be null) is true, a device's next noteOp throws
  /// RunCancelled.
  ThreadsCommunicator(int64_t numDevices, DeviceProgress &progress, int64_t stallPosition = -1,
                      const std::atomic<bool> *cancel = nullptr);

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
  /// What one member keeps in its group, touched by its own thread only
  /// (staging is read by peers between a barrier and the next one).
  struct alignas(64) Local {
    int64_t barrierRounds = 0; // barriers passed in this group
    int64_t permuteRounds = 0; // pair handoffs done in this group
    std::vector<unsigned char> staging[2];
  };
  struct Group {
    Group(int64_t size, const std::atomic<bool> &aborted, bool spinFirst)
        : barrier(size, aborted, spinFirst), handoff(size, aborted, spinFirst),
          members{std::vector<Member>(size), std::vector<Member>(size)}, locals(size) {}
    GroupBarrier barrier;
    PairHandoff handoff;
    /// By barrier round parity, then group position. A member writes the
    /// slots of round r + 2 only after passing barrier r + 1, which every
    /// reader of round r reached after reading: so reads of round r need no
    /// barrier of their own after them.
    std::vector<Member> members[2];
    std::vector<Local> locals; // by group position
    /// The member slots (by position) of `position`'s next barrier round.
    std::vector<Member> &nextMembers(int64_t position) {
      return members[locals[position].barrierRounds % 2];
    }
    void arriveAndWait(int64_t position, bool cancellable) {
      barrier.arriveAndWait(cancellable);
      ++locals[position].barrierRounds;
    }
  };
  struct GroupSet {
    std::vector<std::unique_ptr<Group>> groups; // by group index
  };
  struct DeviceState {
    std::vector<std::pair<uint64_t, GroupSet *>> groupSets; // this device's cache
    std::vector<const void *> sources;                      // reduction scratch
    std::vector<void *> destinations;                       // fused all-gather scratch
  };

  /// Publishes this device's buffers in its group and waits for the others;
  /// returns the group and every member's slot (by position).
  std::pair<Group &, const std::vector<Member> &> publish(const DeviceContext &device,
                                                          const CollectiveGroup &group,
                                                          const void *in, void *out, int64_t size,
                                                          const char *collective);
  Group &groupOf(const DeviceContext &device, const CollectiveGroup &group) {
    return *groupSetFor(device, group).groups[group.index];
  }
  /// This device's staging buffer for its next barrier round, of `bytes`.
  unsigned char *staging(Group &members, const CollectiveGroup &group, int64_t bytes);
  GroupSet &groupSetFor(const DeviceContext &device, const CollectiveGroup &group);

  const bool spinFirst_;
  const int64_t stallPosition_;
  const std::atomic<bool> *cancel_;
  DeviceProgress &progress_;
  std::atomic<bool> aborted_{false};
  GroupBarrier meshBarrier_;
  std::mutex registryMutex_; // guards registry_ (lookups go through DeviceState)
  std::map<uint64_t, std::unique_ptr<GroupSet>> registry_;
  std::vector<DeviceState> devices_; // by position, each touched by its own thread only
};

} // namespace shardgen::runtime
