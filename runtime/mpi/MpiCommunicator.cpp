#include "MpiCommunicator.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "AxesKey.h"
#include "Reduce.h"

namespace shardgen::runtime {

int mpiCount(int64_t bytes) {
  if (bytes < 0 || bytes > INT_MAX)
    throw std::length_error("MPI backend: a message of " + std::to_string(bytes) +
                            " bytes exceeds MPI's int count");
  return static_cast<int>(bytes);
}

namespace {

/// MPI_Alltoallv without the block a member would send itself (counts to
/// and from `self` are 0): the caller reads its own block where it is.
void alltoallvWithoutSelf(const void *send, std::vector<int> sendBytes,
                          const std::vector<int> &sendOffsets, void *receive,
                          std::vector<int> receiveBytes, const std::vector<int> &receiveOffsets,
                          int64_t self, MPI_Comm comm) {
  sendBytes[self] = receiveBytes[self] = 0;
  MPI_Alltoallv(send, sendBytes.data(), sendOffsets.data(), MPI_BYTE, receive, receiveBytes.data(),
                receiveOffsets.data(), MPI_BYTE, comm);
}

} // namespace

void requireExchangeLengths(int64_t position, const int64_t *sentBytes, const int64_t *recvOffsets,
                            int64_t n) {
  for (int64_t q = 0; q < n; ++q)
    if (q != position && sentBytes[q] != recvOffsets[q + 1] - recvOffsets[q])
      throw std::invalid_argument("exchange: position " + std::to_string(q) +
                                  " sends a different number of bytes than position " +
                                  std::to_string(position) + " expects");
}

ChunkCopy reduceScatterSplit(DimView inLayout, int64_t n, int64_t elementBytes) {
  ChunkCopy split;
  split.rows0 = inLayout.outer;
  split.runBytes = inLayout.extent / n * inLayout.inner * elementBytes;
  split.sourceStride0 = inLayout.extent * inLayout.inner * elementBytes;
  split.sourceChunkStride = split.runBytes;
  return split.withPackedDestination();
}

MpiCommunicator::MpiCommunicator(MPI_Comm world, DeviceProgress *progress) : progress_(progress) {
  MPI_Comm_dup(world, &world_);
}

MpiCommunicator::~MpiCommunicator() {
  for (auto &[key, comm] : groups_)
    MPI_Comm_free(&comm);
  MPI_Comm_free(&world_);
}

MPI_Comm MpiCommunicator::groupComm(const CollectiveGroup &group) {
  uint64_t key = axesKey(group);
  auto found = groups_.find(key);
  if (found != groups_.end())
    return found->second;
  MPI_Comm comm;
  MPI_Comm_split(world_, static_cast<int>(group.index), static_cast<int>(group.position), &comm);
  groups_.emplace(key, comm);
  return comm;
}

void MpiCommunicator::reduceChunkInSegments(const CollectiveGroup &group, ElementType type,
                                            Reducer reducer, const void *in, unsigned char *out,
                                            const std::vector<int> &chunkBytes,
                                            const std::vector<int> &chunkOffsets, MPI_Comm comm) {
  // Segment by segment, so what arrives is reduced while it is in cache (one
  // pass over 16 MiB each would read it back from memory): round r moves
  // segment r of every chunk to the chunk's owner. Every member runs the
  // same rounds (the first chunk is the longest).
  const int64_t n = group.size, p = group.position, bytes = elementBytes(type);
  const int64_t longest = chunkBytes[0];
  const int64_t wanted =
      std::max(kReduceSegmentBytes, (longest + kMaxReduceRounds - 1) / kMaxReduceRounds);
  const int64_t segment = (wanted + bytes - 1) / bytes * bytes;
  receive_.resize(static_cast<size_t>(segment * n));
  std::vector<int> sendBytes(n), sendOffsets(n), receiveBytes(n), receiveOffsets(n);
  std::vector<const void *> sources(n);
  for (int64_t begin = 0; begin < longest; begin += segment) {
    auto segmentOf = [&](int64_t k) {
      return std::clamp<int64_t>(chunkBytes[k] - begin, 0, segment);
    };
    for (int64_t k = 0; k < n; ++k) {
      sendOffsets[k] = mpiCount(chunkOffsets[k] + std::min<int64_t>(begin, chunkBytes[k]));
      sendBytes[k] = mpiCount(segmentOf(k));
      receiveOffsets[k] = mpiCount(k * segment);
      receiveBytes[k] = mpiCount(segmentOf(p));
      // Its own segment is read in place (in == out is allowed: the
      // reduction reads each element before it writes it).
      sources[k] = k == p ? static_cast<const unsigned char *>(in) + sendOffsets[p]
                          : receive_.data() + receiveOffsets[k];
    }
    alltoallvWithoutSelf(in, sendBytes, sendOffsets, receive_.data(), receiveBytes, receiveOffsets,
                         p, comm);
    reduceSources(type, reducer, sources.data(), n, out + sendOffsets[p], segmentOf(p) / bytes);
  }
}

void MpiCommunicator::allReduce(const DeviceContext &, const CollectiveGroup &group,
                                ElementType type, Reducer reducer, const void *in, void *out,
                                int64_t count) {
  const int64_t bytes = elementBytes(type);
  if (group.size == 1 || count == 0) {
    if (in != out && count > 0)
      std::memcpy(out, in, static_cast<size_t>(count * bytes));
    return;
  }
  MPI_Comm comm = groupComm(group);
  // Reduce-scatter (all-to-alls of chunks, reduced here in position order),
  // then all-gather of the reduced chunks: the threads algorithm.
  const int64_t n = group.size, chunk = (count + n - 1) / n;
  std::vector<int> chunkBytes(n), chunkOffsets(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t begin = std::min(k * chunk, count);
    chunkOffsets[k] = mpiCount(begin * bytes);
    chunkBytes[k] = mpiCount(std::min(chunk, count - begin) * bytes);
  }
  reduceChunkInSegments(group, type, reducer, in, static_cast<unsigned char *>(out), chunkBytes,
                        chunkOffsets, comm);
  auto *result = static_cast<unsigned char *>(out);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, result, chunkBytes.data(), chunkOffsets.data(),
                 MPI_BYTE, comm);
}

void MpiCommunicator::allGather(const DeviceContext &, const CollectiveGroup &group,
                                const ChunkCopy &gather, const void *in, void *out) {
  const int64_t bytes = gather.chunkBytes();
  if (group.size == 1 || bytes == 0) {
    gather.copy(in, 0, out, 0);
    return;
  }
  MPI_Comm comm = groupComm(group);
  if (gather.rows0 == 1) { // slots are back to back: gather in place
    MPI_Allgather(in, mpiCount(bytes), MPI_BYTE, out, mpiCount(bytes), MPI_BYTE, comm);
    return;
  }
  receive_.resize(static_cast<size_t>(bytes * group.size));
  MPI_Allgather(in, mpiCount(bytes), MPI_BYTE, receive_.data(), mpiCount(bytes), MPI_BYTE, comm);
  ChunkCopy unpack = gather.withPackedSource();
  for (int64_t k = 0; k < group.size; ++k)
    unpack.copy(receive_.data(), k, out, k);
}

void MpiCommunicator::reduceScatter(const DeviceContext &, const CollectiveGroup &group,
                                    ElementType type, Reducer reducer, DimView inLayout,
                                    const void *in, void *out) {
  const int64_t bytes = elementBytes(type), n = group.size;
  const int64_t chunkElements = inLayout.extent / n * inLayout.inner; // per row
  const int64_t blockBytes = inLayout.outer * chunkElements * bytes;  // one peer's share
  const ChunkCopy split = reduceScatterSplit(inLayout, n, bytes);
  // Block k (chunk k of every row) goes to position k: packed unless there
  // is one row, whose chunks are back to back already.
  const auto *blocks = static_cast<const unsigned char *>(in);
  if (inLayout.outer != 1) {
    send_.resize(static_cast<size_t>(blockBytes * n));
    for (int64_t k = 0; k < n; ++k)
      split.copy(in, k, send_.data(), k);
    blocks = send_.data();
  }
  const int64_t p = group.position;
  if (n > 1 && blockBytes > 0) {
    receive_.resize(static_cast<size_t>(blockBytes * n));
    std::vector<int> blockSizes(n, mpiCount(blockBytes)), offsets(n);
    for (int64_t k = 0; k < n; ++k)
      offsets[k] = mpiCount(k * blockBytes);
    alltoallvWithoutSelf(blocks, blockSizes, offsets, receive_.data(), blockSizes, offsets, p,
                         groupComm(group));
  }
  std::vector<const void *> sources(n);
  for (int64_t k = 0; k < n; ++k)
    sources[k] = k == p ? blocks + p * blockBytes : receive_.data() + k * blockBytes;
  reduceSources(type, reducer, sources.data(), n, out, inLayout.outer * chunkElements);
}

void MpiCommunicator::allToAll(const DeviceContext &, const CollectiveGroup &group,
                               const ChunkCopy &exchange, const void *in, void *out) {
  const int64_t bytes = exchange.chunkBytes(), n = group.size;
  if (n == 1 || bytes == 0) {
    exchange.copy(in, 0, out, 0);
    return;
  }
  // Chunks already back to back (splitting the leading dims) go as they are.
  const bool packedIn =
      exchange.rows0 == 1 && exchange.rows1 == 1 && exchange.sourceChunkStride == bytes;
  const bool packedOut =
      exchange.rows0 == 1 && exchange.rows1 == 1 && exchange.destinationSlotStride == bytes;
  const void *send = in;
  if (!packedIn) {
    ChunkCopy pack = exchange.withPackedDestination();
    send_.resize(static_cast<size_t>(bytes * n));
    for (int64_t k = 0; k < n; ++k)
      pack.copy(in, k, send_.data(), k);
    send = send_.data();
  }
  receive_.resize(packedOut ? 0 : static_cast<size_t>(bytes * n));
  void *receive = packedOut ? out : receive_.data();
  MPI_Alltoall(send, mpiCount(bytes), MPI_BYTE, receive, mpiCount(bytes), MPI_BYTE,
               groupComm(group));
  if (!packedOut) {
    ChunkCopy unpack = exchange.withPackedSource();
    for (int64_t k = 0; k < n; ++k)
      unpack.copy(receive_.data(), k, out, k);
  }
}

void MpiCommunicator::collectivePermute(const DeviceContext &, const CollectiveGroup &group,
                                        int64_t source, int64_t destination, const void *in,
                                        void *out, int64_t bytes) {
  if (source == group.position) {
    if (in != out && bytes > 0)
      std::memcpy(out, in, static_cast<size_t>(bytes));
    return;
  }
  MPI_Sendrecv(in, mpiCount(bytes), MPI_BYTE, static_cast<int>(destination), 0, out,
               mpiCount(bytes), MPI_BYTE, static_cast<int>(source), 0, groupComm(group),
               MPI_STATUS_IGNORE);
}

void MpiCommunicator::barrier(const DeviceContext &) { MPI_Barrier(world_); }

void MpiCommunicator::exchange(const DeviceContext &, const CollectiveGroup &group,
                               const void *send, const int64_t *sendOffsets, void *recv,
                               const int64_t *recvOffsets) {
  // The lengths first (one small all-to-all), so a disagreement is an error
  // rather than a truncated message; then one MPI_Alltoallv of the bytes on
  // the mesh communicator (ranked by mesh position).
  const int64_t n = group.size, p = group.position;
  std::vector<int64_t> sendBytes(n), sentBytes(n);
  for (int64_t q = 0; q < n; ++q)
    sendBytes[q] = q == p ? 0 : sendOffsets[q + 1] - sendOffsets[q];
  MPI_Comm comm = groupComm(group);
  MPI_Alltoall(sendBytes.data(), 1, MPI_INT64_T, sentBytes.data(), 1, MPI_INT64_T, comm);
  requireExchangeLengths(p, sentBytes.data(), recvOffsets, n);
  std::vector<int> sendCounts(n), sendDisplacements(n), recvCounts(n), recvDisplacements(n);
  for (int64_t q = 0; q < n; ++q) {
    sendCounts[q] = mpiCount(sendBytes[q]); // 0 to itself: its own segment is not moved
    sendDisplacements[q] = mpiCount(sendOffsets[q]);
    recvCounts[q] = mpiCount(sentBytes[q]);
    recvDisplacements[q] = mpiCount(recvOffsets[q]);
  }
  MPI_Alltoallv(send, sendCounts.data(), sendDisplacements.data(), MPI_BYTE, recv,
                recvCounts.data(), recvDisplacements.data(), MPI_BYTE, comm);
}

void MpiCommunicator::noteOp(const DeviceContext &device, const char *pointer) {
  if (progress_)
    progress_->noteOp(device.position, pointer);
}

void MpiCommunicator::noteCollective(const DeviceContext &device, const char *collective) {
  if (progress_)
    progress_->noteCollective(device.position, collective);
}

} // namespace shardgen::runtime
