#pragma once
// Collectives as MPI calls on one communicator per axis group (MPI_Comm_split
// of the world by group index, ranked by group position; cached per axis
// list). Reductions run locally with the shared kernel in position order,
// so results are bit-identical to the threads backend.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <vector>

#include "DeviceProgress.h"
#include "shardgen/communicator.h"

namespace shardgen::runtime {

/// `bytes` as an MPI count (an int; larger messages would need derived
/// datatypes): throws std::length_error beyond INT_MAX.
int mpiCount(int64_t bytes);

/// all_reduce moves and reduces its chunks in segments (a segment and its
/// reduction stay in cache) of at least this many bytes per member, and in
/// at most kMaxReduceRounds rounds (each round waits for every member: on a
/// loaded machine a member that is not running stalls the others).
constexpr int64_t kReduceSegmentBytes = int64_t{256} << 10;
constexpr int64_t kMaxReduceRounds = 8;

/// An exchange's receive lengths checked against what the senders announced
/// (`sentBytes[q]`, from an all-to-all of lengths): throws
/// std::invalid_argument naming the first sender `q` that disagrees.
void requireExchangeLengths(int64_t position, const int64_t *sentBytes, const int64_t *recvOffsets,
                            int64_t n);

/// A reduce_scatter's messages: chunk k of every row of `inLayout` (split
/// into n chunks along its middle dim), packed, goes to position k.
ChunkCopy reduceScatterSplit(DimView inLayout, int64_t n, int64_t elementBytes);

class MpiCommunicator final : public Communicator {
public:
  /// Reports what the device does to `progress` (for a watchdog), if given.
  explicit MpiCommunicator(MPI_Comm world, DeviceProgress *progress = nullptr);
  ~MpiCommunicator() override;
  /// Where the devices of the current launch report what they do (null: nowhere).
  void setProgress(DeviceProgress *progress) { progress_ = progress; }
  MpiCommunicator(const MpiCommunicator &) = delete;
  MpiCommunicator &operator=(const MpiCommunicator &) = delete;

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
  /// The communicator of this rank's group; created collectively on first use.
  MPI_Comm groupComm(const CollectiveGroup &group);
  /// all_reduce's first half: position p's chunk of `out` (chunk k is
  /// `chunkBytes[k]` at `chunkOffsets[k]`, the first the longest) becomes the
  /// reduction, in position order, of every member's chunk p of `in`.
  void reduceChunkInSegments(const CollectiveGroup &group, ElementType type, Reducer reducer,
                             const void *in, unsigned char *out, const std::vector<int> &chunkBytes,
                             const std::vector<int> &chunkOffsets, MPI_Comm comm);

  MPI_Comm world_;
  DeviceProgress *progress_;
  std::map<uint64_t, MPI_Comm> groups_; // by axis list
  std::vector<unsigned char> send_, receive_;
};

} // namespace shardgen::runtime
