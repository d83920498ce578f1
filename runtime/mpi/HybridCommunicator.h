#pragma once
// Ranks x threads: each MPI rank runs a block of consecutive mesh positions
// as threads (so the minor mesh axes stay inside a rank and the major ones
// span ranks). A collective whose groups all lie inside ranks is the threads
// backend's, shared memory only. One whose groups cross ranks is a rank
// step: every device of the rank publishes its buffers, one thread (the
// rank's first device) moves the bytes of every group with one MPI_Alltoallv
// per group on a communicator split per group (cached per axis list), and
// the devices go on. Reductions run in group-position order with the shared
// kernel, so results are bit-identical to the other backends.

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "GroupBarrier.h"
#include "ThreadsCommunicator.h"
#include "shardgen/communicator.h"
#include "shardgen/mesh.h"

namespace shardgen::runtime {

class HybridCommunicator final : public Communicator {
public:
  /// `world`: one rank per block of `devicesPerRank` positions, in order.
  HybridCommunicator(const DeviceMesh &mesh, MPI_Comm world, int64_t devicesPerRank,
                     DeviceProgress &progress);
  ~HybridCommunicator() override;
  HybridCommunicator(const HybridCommunicator &) = delete;
  HybridCommunicator &operator=(const HybridCommunicator &) = delete;

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

  /// A device's part of a rank step: its buffers and group.
  struct Slot {
    const void *in = nullptr;
    void *out = nullptr;
    CollectiveGroup group;
  };
  /// The groups of one axis list, as ranks see them.
  struct AxisPlan {
    bool crossesRanks = false;
    /// Per group index: the group positions each rank holds (by rank), and
    /// the group's communicator (MPI_COMM_NULL unless it crosses ranks and
    /// this rank holds a member).
    std::vector<std::map<int, std::vector<int64_t>>> members;
    std::vector<MPI_Comm> comms;
    bool commsSplit = false; // comms are made in the first rank step using them
  };
  /// Bytes moved from group position q to group position p, written by the
  /// source's rank into a message and read by the destination's rank.
  struct Exchange {
    std::function<int64_t(int64_t q, int64_t p)> bytes;
    std::function<void(const Slot &source, int64_t p, unsigned char *to)> pack;
    std::function<void(int64_t q, const Slot &destination, const unsigned char *from)> unpack;
    /// Called per local destination once all its blocks are unpacked (the
    /// received bytes are still there).
    std::function<void(const Slot &destination)> finish;
  };

private:
  AxisPlan &planFor(const CollectiveGroup &group);
  /// Splits the world into the plan's group communicators (collective: the
  /// rank's first device, in a rank step, so every rank does it in order).
  void splitComms(AxisPlan &plan);
  /// Publishes this device's slot; the rank's first device runs `move` over
  /// the slots once all arrived; returns when it is done.
  void rankStep(const DeviceContext &device, const Slot &slot,
                const std::function<void(const std::vector<Slot> &)> &move);
  /// The slot of the local device at group position `p` of a whole-mesh group.
  const Slot *localSlot(const std::vector<Slot> &slots, int64_t p) const;
  /// Runs `exchange` for every group with members on this rank.
  void exchangeGroups(AxisPlan &plan, const std::vector<Slot> &slots, const Exchange &exchange);

  const DeviceMesh &mesh_;
  MPI_Comm world_;
  const int64_t devicesPerRank_;
  int rank_ = 0;
  int64_t firstPosition_ = 0;
  ThreadsCommunicator local_;
  // Never set: a failing device ends every rank (MPI_Abort) instead.
  std::atomic<bool> aborted_{false};
  GroupBarrier stepBarrier_;
  std::vector<Slot> slots_; // by local index
  std::mutex plansMutex_;
  std::map<uint64_t, std::unique_ptr<AxisPlan>> plans_;
  std::vector<unsigned char> send_, receive_, scratch_;
};

} // namespace shardgen::runtime
