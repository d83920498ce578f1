#pragma once
// What a backend (threads, MPI) implements. The free functions of runtime.h
// validate their arguments, resolve the device's group and the data movement
// once, and hand both to the device's Communicator, so every backend moves
// the same bytes and reduces in the same order.

#include <exception>

#include "shardgen/runtime.h"

namespace shardgen::runtime {

/// A device's group for one collective.
struct CollectiveGroup {
  int32_t axes[kMaxMeshAxes] = {}; // as listed
  int32_t numAxes = 0;
  int64_t index = 0;    // which group: row-major over the unlisted axes, mesh order
  int64_t position = 0; // row-major over the listed axes, listed order
  int64_t size = 1;
  int64_t numGroups = 1;
};

/// How chunk k of a source buffer lands in slot q of a destination buffer:
/// `rows0 x rows1` contiguous runs of `runBytes`; chunk k starts at byte
/// k * sourceChunkStride, slot q at q * destinationSlotStride.
struct ChunkCopy {
  int64_t rows0 = 1, sourceStride0 = 0, destinationStride0 = 0;
  int64_t rows1 = 1, sourceStride1 = 0, destinationStride1 = 0;
  int64_t runBytes = 0;
  int64_t sourceChunkStride = 0;
  int64_t destinationSlotStride = 0;

  int64_t chunkBytes() const { return rows0 * rows1 * runBytes; }
  /// Copies chunk `chunk` of `source` into slot `slot` of `destination`.
  void copy(const void *source, int64_t chunk, void *destination, int64_t slot) const;
  /// The same chunks read from / written to densely packed buffers (for
  /// backends that pack chunks into messages).
  ChunkCopy withPackedSource() const;
  ChunkCopy withPackedDestination() const;
};

/// A failure on another device ended this collective; the launcher reports
/// that device's error instead.
struct PeerFailure : std::exception {
  const char *what() const noexcept override { return "another device failed"; }
};

class Communicator {
public:
  virtual ~Communicator() = default;

  virtual void allReduce(const DeviceContext &device, const CollectiveGroup &group,
                         ElementType type, Reducer reducer, const void *in, void *out,
                         int64_t count) = 0;
  /// `gather` places the whole input (chunk 0) into slot q = source position.
  virtual void allGather(const DeviceContext &device, const CollectiveGroup &group,
                         const ChunkCopy &gather, const void *in, void *out) = 0;
  virtual void reduceScatter(const DeviceContext &device, const CollectiveGroup &group,
                             ElementType type, Reducer reducer, DimView inLayout, const void *in,
                             void *out) = 0;
  /// `exchange` copies chunk p of a source into slot q of position p's output.
  virtual void allToAll(const DeviceContext &device, const CollectiveGroup &group,
                        const ChunkCopy &exchange, const void *in, void *out) = 0;
  /// Receive `bytes` from group position `source`, send to `destination`.
  virtual void collectivePermute(const DeviceContext &device, const CollectiveGroup &group,
                                 int64_t source, int64_t destination, const void *in, void *out,
                                 int64_t bytes) = 0;
  virtual void barrier(const DeviceContext &device) = 0;
  /// runtime.h's exchange; `group` is the whole mesh (position = mesh position).
  /// Backends without it throw std::logic_error.
  virtual void exchange(const DeviceContext &device, const CollectiveGroup &group, const void *send,
                        const int64_t *sendOffsets, void *recv, const int64_t *recvOffsets);

  /// Progress for a watchdog (threads backend; others ignore it): the op the
  /// device's next collectives serve, and the collective it is in (nullptr
  /// once it left). Both are string literals that outlive the run.
  virtual void noteOp(const DeviceContext &, const char * /*pointer*/) {}
  virtual void noteCollective(const DeviceContext &, const char * /*collective*/) {}
};

} // namespace shardgen::runtime
