#pragma once
// The runtime as generated per-device code sees it: the device context and the
// collectives over mesh axes. Deliberately tiny (two C headers and plain
// structs) because JIT compile time is dominated by the headers a program
// includes. Host-side APIs (meshes, launching, scatter/gather) live in
// mesh.h, launch.h, distribution.h and mpi.h.
//
// Collective semantics (the graph format's "Collective semantics" section):
// a collective's group is the devices that differ only in their coordinates on
// the listed axes; a device's position in its group is row-major over those
// axes in the order listed. Every device runs the same collectives in the same
// order (SPMD); buffers of one collective have the same size on every member.

#include <stddef.h>
#include <stdint.h>

#include "shardgen/custom_call.h"
#include "shardgen/minifloat.h"
#include "shardgen/reducer.h"

namespace shardgen::runtime {

using ElementType = shardgen_element_type;

/// Bytes per element in a dense buffer (i1 is one byte holding 0 or 1).
inline constexpr int64_t elementBytes(ElementType type) {
  switch (type) {
  case SHARDGEN_C128:
    return 16;
  case SHARDGEN_F64:
  case SHARDGEN_I64:
  case SHARDGEN_UI64:
  case SHARDGEN_C64:
    return 8;
  case SHARDGEN_F32:
  case SHARDGEN_I32:
  case SHARDGEN_UI32:
    return 4;
  case SHARDGEN_F16:
  case SHARDGEN_BF16:
  case SHARDGEN_I16:
  case SHARDGEN_UI16:
    return 2;
  case SHARDGEN_I1:
  case SHARDGEN_I2:
  case SHARDGEN_I4:
  case SHARDGEN_UI2:
  case SHARDGEN_UI4:
#define SHARDGEN_MINI_FLOAT_CASE(Name, mlirName) case SHARDGEN_##Name:
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_CASE) // one byte holding the code
#undef SHARDGEN_MINI_FLOAT_CASE
  case SHARDGEN_I8:
  case SHARDGEN_UI8:
    return 1;
  }
  return 0; // not an element type: rejected by every collective
}

inline constexpr int32_t kMaxMeshAxes = 32; // the verifier refuses larger meshes

class Communicator; // the backend (threads or MPI); opaque to generated code
class DeviceMesh;   // host-side mesh with axis names; opaque to generated code

/// What one device's code is handed: where it sits in the mesh.
struct DeviceContext {
  int64_t position = 0; // row-major over the mesh axes
  int64_t deviceId = 0; // position mapped through the mesh's device_ids
  int64_t numDevices = 1;
  int32_t numAxes = 0;
  int64_t axisSizes[kMaxMeshAxes] = {};
  int64_t coordinates[kMaxMeshAxes] = {}; // one per mesh axis
  const DeviceMesh *mesh = nullptr;
  Communicator *communicator = nullptr;
};

/// Mesh axes by index, in the order a collective lists them.
struct AxisList {
  const int32_t *axes = nullptr;
  int32_t count = 0;
};

/// A dense row-major buffer seen as [outer, extent, inner] around one
/// dimension, so collectives along any dimension need no transpose.
struct DimView {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
};

/// The view of `shape` around dimension `dim`.
inline DimView viewAlong(const int64_t *shape, int64_t rank, int64_t dim) {
  DimView view;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < dim)
      view.outer *= shape[d];
    else if (d == dim)
      view.extent = shape[d];
    else
      view.inner *= shape[d];
  }
  return view;
}

/// `out` = the group's `in` buffers (`count` elements each) reduced
/// elementwise in position order; f16/bf16 accumulate in f32 and round once;
/// integers wrap; on i1, add/max are `or` and mul/min are `and`. `in` may
/// equal `out`.
void allReduce(const DeviceContext &device, AxisList axes, ElementType type, Reducer reducer,
               const void *in, void *out, int64_t count);

/// `out` ([outer, extent * n, inner]) = the group's `in` (`inLayout`: [outer,
/// extent, inner]) concatenated along the middle dimension in position order.
void allGather(const DeviceContext &device, AxisList axes, ElementType type, DimView inLayout,
               const void *in, void *out);

/// Reduces the group's `in` (`inLayout`: [outer, extent, inner]) and keeps chunk k of
/// the middle dimension at position k: `out` is [outer, extent / n, inner].
/// `extent` must be divisible by the group size.
void reduceScatter(const DeviceContext &device, AxisList axes, ElementType type, Reducer reducer,
                   DimView inLayout, const void *in, void *out);

/// StableHLO's tiled all_to_all on a dense buffer of `shape`: splits
/// `splitDim` into n chunks, sends chunk k to position k and concatenates what
/// it receives along `concatDim` in source position order.
void allToAll(const DeviceContext &device, AxisList axes, ElementType type, const int64_t *shape,
              int64_t rank, int64_t splitDim, int64_t concatDim, const void *in, void *out);

/// Position p receives the `in` of position (p - shift) mod n. `in` != `out`.
void collectivePermute(const DeviceContext &device, AxisList axes, ElementType type, int64_t shift,
                       const void *in, void *out, int64_t count);

/// Point to point over the whole mesh (the transfers of distributed values,
/// which move only what must move): the device sends bytes
/// [sendOffsets[q], sendOffsets[q + 1]) of `send` to mesh position q and
/// receives position q's bytes for it at [recvOffsets[q], recvOffsets[q + 1])
/// of `recv` (both arrays have numDevices + 1 entries; what q sends must be
/// as long as what its receiver expects). Its own segment is not moved.
void exchange(const DeviceContext &device, const void *send, const int64_t *sendOffsets, void *recv,
              const int64_t *recvOffsets);

/// This device's coordinate on mesh axis `axis`.
int32_t axisIndex(const DeviceContext &device, int32_t axis);

/// The number of devices in this device's group over `axes`, and its position.
int64_t groupSize(const DeviceContext &device, AxisList axes);
int64_t groupPosition(const DeviceContext &device, AxisList axes);

/// Waits until every device of the mesh has arrived.
void barrier(const DeviceContext &device);

/// Names the op (a JSON pointer, a string literal) that this device's next
/// collectives serve, so a watchdog can say where a device waits.
void traceOp(const DeviceContext &device, const char *pointer);

/// A block of `bytes` for a device's buffers, from a small process-wide pool
/// of blocks earlier calls gave back: allocating (and page-faulting) tens of
/// MB on every call of a program cost more than its kernels. Give it back
/// with releaseArena (same `bytes`); never shared between two holders.
unsigned char *acquireArena(int64_t bytes);
void releaseArena(unsigned char *data, int64_t bytes);

} // namespace shardgen::runtime
