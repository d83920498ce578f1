// The collectives' public entry points: check the arguments, resolve the
// device's group and the data movement, then let the backend move the bytes.

#include <stdexcept>
#include <string>

#include "Reduce.h"
#include "shardgen/communicator.h"

namespace shardgen::runtime {
namespace {

[[noreturn]] void fail(const char *collective, const std::string &message) {
  throw std::invalid_argument(std::string(collective) + ": " + message);
}

CollectiveGroup resolveGroup(const DeviceContext &device, AxisList axes, const char *collective) {
  if (axes.count < 0 || axes.count > device.numAxes || (axes.count > 0 && !axes.axes))
    fail(collective, "lists " + std::to_string(axes.count) + " axes of a mesh with " +
                         std::to_string(device.numAxes));
  CollectiveGroup group;
  group.numAxes = axes.count;
  bool listed[kMaxMeshAxes] = {};
  for (int32_t i = 0; i < axes.count; ++i) {
    int32_t axis = axes.axes[i];
    if (axis < 0 || axis >= device.numAxes)
      fail(collective, "axis " + std::to_string(axis) + " is not an axis of the mesh (it has " +
                           std::to_string(device.numAxes) + ")");
    if (listed[axis])
      fail(collective, "axis " + std::to_string(axis) + " is listed twice");
    listed[axis] = true;
    group.axes[i] = axis;
    group.position = group.position * device.axisSizes[axis] + device.coordinates[axis];
    group.size *= device.axisSizes[axis];
  }
  for (int32_t axis = 0; axis < device.numAxes; ++axis) {
    if (listed[axis])
      continue;
    group.index = group.index * device.axisSizes[axis] + device.coordinates[axis];
    group.numGroups *= device.axisSizes[axis];
  }
  return group;
}

Communicator &communicatorOf(const DeviceContext &device, const char *collective) {
  if (!device.communicator)
    fail(collective, "the device context has no communicator; run device code through a launcher");
  return *device.communicator;
}

/// Tells the backend which collective the device is in while it is (for the
/// watchdog's report).
class InCollective {
public:
  InCollective(Communicator &communicator, const DeviceContext &device, const char *collective)
      : communicator_(communicator), device_(device) {
    communicator_.noteCollective(device_, collective);
  }
  ~InCollective() { communicator_.noteCollective(device_, nullptr); }
  InCollective(const InCollective &) = delete;
  InCollective &operator=(const InCollective &) = delete;

private:
  Communicator &communicator_;
  const DeviceContext &device_;
};

int64_t checkedElementBytes(ElementType type, const char *collective) {
  int64_t bytes = elementBytes(type);
  if (bytes == 0)
    fail(collective, "unknown element type " + std::to_string(static_cast<int>(type)));
  return bytes;
}

void checkBuffers(const void *in, const void *out, int64_t count, const char *collective) {
  if (count < 0)
    fail(collective, "negative element count " + std::to_string(count));
  if (count > 0 && (!in || !out))
    fail(collective, "null buffer");
}

void checkView(DimView view, const char *collective) {
  if (view.outer < 0 || view.extent < 0 || view.inner < 0)
    fail(collective, "negative buffer dimension");
}

// All-to-all as a chunk copy: the buffer is [outer, A, middle, B, inner]
// around the split and concat dims (A, B in dim order); chunk k of the split
// dim goes to position k, and what comes from position q fills slot q of the
// concat dim. Rows of `middle` and of the dim before the contiguous run merge
// into one strided loop, so each case is two loops around one memcpy.
ChunkCopy allToAllExchange(const int64_t *shape, int64_t rank, int64_t splitDim, int64_t concatDim,
                           int64_t groupSize, int64_t bytes) {
  int64_t low = splitDim < concatDim ? splitDim : concatDim;
  int64_t high = splitDim < concatDim ? concatDim : splitDim;
  int64_t outer = 1, middle = 1, inner = bytes;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < low)
      outer *= shape[d];
    else if (d > low && d < high)
      middle *= shape[d];
    else if (d > high)
      inner *= shape[d];
  }
  int64_t split = shape[splitDim], chunk = split / groupSize;
  ChunkCopy exchange;
  exchange.rows0 = outer;
  if (splitDim == concatDim) {
    exchange.runBytes = chunk * inner;
    exchange.sourceStride0 = exchange.destinationStride0 = split * inner;
    exchange.sourceChunkStride = exchange.destinationSlotStride = chunk * inner;
  } else if (splitDim < concatDim) {
    int64_t concat = shape[concatDim];
    exchange.runBytes = concat * inner;
    exchange.sourceStride0 = split * middle * concat * inner;
    exchange.destinationStride0 = chunk * middle * concat * groupSize * inner;
    exchange.rows1 = chunk * middle;
    exchange.sourceStride1 = concat * inner;
    exchange.destinationStride1 = concat * groupSize * inner;
    exchange.sourceChunkStride = chunk * middle * concat * inner;
    exchange.destinationSlotStride = concat * inner;
  } else {
    int64_t concat = shape[concatDim];
    exchange.runBytes = chunk * inner;
    exchange.sourceStride0 = concat * middle * split * inner;
    exchange.destinationStride0 = concat * groupSize * middle * chunk * inner;
    exchange.rows1 = concat * middle;
    exchange.sourceStride1 = split * inner;
    exchange.destinationStride1 = chunk * inner;
    exchange.sourceChunkStride = chunk * inner;
    exchange.destinationSlotStride = concat * middle * chunk * inner;
  }
  return exchange;
}

} // namespace

void allReduce(const DeviceContext &device, AxisList axes, ElementType type, Reducer reducer,
               const void *in, void *out, int64_t count) {
  constexpr const char *kName = "all_reduce";
  Communicator &communicator = communicatorOf(device, kName);
  InCollective inCollective(communicator, device, kName);
  CollectiveGroup group = resolveGroup(device, axes, kName);
  checkedElementBytes(type, kName);
  checkReducer(type, reducer, kName);
  checkBuffers(in, out, count, kName);
  communicator.allReduce(device, group, type, reducer, in, out, count);
}

void allGather(const DeviceContext &device, AxisList axes, ElementType type, DimView inLayout,
               const void *in, void *out) {
  constexpr const char *kName = "all_gather";
  Communicator &communicator = communicatorOf(device, kName);
  InCollective inCollective(communicator, device, kName);
  CollectiveGroup group = resolveGroup(device, axes, kName);
  int64_t bytes = checkedElementBytes(type, kName);
  checkView(inLayout, kName);
  checkBuffers(in, out, inLayout.outer * inLayout.extent * inLayout.inner, kName);
  ChunkCopy gather;
  gather.rows0 = inLayout.outer;
  gather.runBytes = inLayout.extent * inLayout.inner * bytes;
  gather.sourceStride0 = gather.runBytes;
  gather.destinationStride0 = gather.runBytes * group.size;
  gather.destinationSlotStride = gather.runBytes;
  communicator.allGather(device, group, gather, in, out);
}

void reduceScatter(const DeviceContext &device, AxisList axes, ElementType type, Reducer reducer,
                   DimView inLayout, const void *in, void *out) {
  constexpr const char *kName = "reduce_scatter";
  Communicator &communicator = communicatorOf(device, kName);
  InCollective inCollective(communicator, device, kName);
  CollectiveGroup group = resolveGroup(device, axes, kName);
  checkedElementBytes(type, kName);
  checkReducer(type, reducer, kName);
  checkView(inLayout, kName);
  checkBuffers(in, out, inLayout.outer * inLayout.extent * inLayout.inner, kName);
  if (inLayout.extent % group.size != 0)
    fail(kName, "dimension size " + std::to_string(inLayout.extent) +
                    " is not divisible by the group size " + std::to_string(group.size));
  communicator.reduceScatter(device, group, type, reducer, inLayout, in, out);
}

void allToAll(const DeviceContext &device, AxisList axes, ElementType type, const int64_t *shape,
              int64_t rank, int64_t splitDim, int64_t concatDim, const void *in, void *out) {
  constexpr const char *kName = "all_to_all";
  Communicator &communicator = communicatorOf(device, kName);
  InCollective inCollective(communicator, device, kName);
  CollectiveGroup group = resolveGroup(device, axes, kName);
  int64_t bytes = checkedElementBytes(type, kName);
  if (rank < 1 || !shape)
    fail(kName, "needs a tensor of rank >= 1");
  if (splitDim < 0 || splitDim >= rank || concatDim < 0 || concatDim >= rank)
    fail(kName, "split_dimension " + std::to_string(splitDim) + " or concat_dimension " +
                    std::to_string(concatDim) + " is out of range for rank " +
                    std::to_string(rank));
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] < 0)
      fail(kName, "negative dimension size");
    count *= shape[d];
  }
  checkBuffers(in, out, count, kName);
  if (shape[splitDim] % group.size != 0)
    fail(kName, "split dimension size " + std::to_string(shape[splitDim]) +
                    " is not divisible by the group size " + std::to_string(group.size));
  communicator.allToAll(device, group,
                        allToAllExchange(shape, rank, splitDim, concatDim, group.size, bytes), in,
                        out);
}

void collectivePermute(const DeviceContext &device, AxisList axes, ElementType type, int64_t shift,
                       const void *in, void *out, int64_t count) {
  constexpr const char *kName = "collective_permute";
  Communicator &communicator = communicatorOf(device, kName);
  InCollective inCollective(communicator, device, kName);
  CollectiveGroup group = resolveGroup(device, axes, kName);
  int64_t bytes = checkedElementBytes(type, kName);
  checkBuffers(in, out, count, kName);
  int64_t step = shift % group.size; // in (-n, n): no overflow below
  int64_t source = (group.position - step + group.size) % group.size;
  int64_t destination = (group.position + step + group.size) % group.size;
  if (in == out && source != group.position && count > 0)
    fail(kName, "the input and output buffers must differ");
  communicator.collectivePermute(device, group, source, destination, in, out, count * bytes);
}

void Communicator::exchange(const DeviceContext &, const CollectiveGroup &, const void *,
                            const int64_t *, void *, const int64_t *) {
  throw std::logic_error("exchange: this backend does not implement it");
}

void exchange(const DeviceContext &device, const void *send, const int64_t *sendOffsets, void *recv,
              const int64_t *recvOffsets) {
  constexpr const char *kName = "exchange";
  Communicator &communicator = communicatorOf(device, kName);
  InCollective inCollective(communicator, device, kName);
  int32_t axes[kMaxMeshAxes] = {};
  for (int32_t i = 0; i < device.numAxes; ++i)
    axes[i] = i;
  CollectiveGroup group = resolveGroup(device, AxisList{axes, device.numAxes}, kName);
  if (!sendOffsets || !recvOffsets)
    fail(kName, "null offsets");
  for (int64_t q = 0; q < group.size; ++q)
    if (sendOffsets[q + 1] < sendOffsets[q] || recvOffsets[q + 1] < recvOffsets[q])
      fail(kName, "offsets must not decrease");
  if ((sendOffsets[group.size] > sendOffsets[0] && !send) ||
      (recvOffsets[group.size] > recvOffsets[0] && !recv))
    fail(kName, "null buffer");
  communicator.exchange(device, group, send, sendOffsets, recv, recvOffsets);
}

int32_t axisIndex(const DeviceContext &device, int32_t axis) {
  if (axis < 0 || axis >= device.numAxes)
    fail("axis_index", "axis " + std::to_string(axis) + " is not an axis of the mesh (it has " +
                           std::to_string(device.numAxes) + ")");
  return static_cast<int32_t>(device.coordinates[axis]);
}

int64_t groupSize(const DeviceContext &device, AxisList axes) {
  return resolveGroup(device, axes, "group_size").size;
}

int64_t groupPosition(const DeviceContext &device, AxisList axes) {
  return resolveGroup(device, axes, "group_position").position;
}

void barrier(const DeviceContext &device) {
  Communicator &communicator = communicatorOf(device, "barrier");
  InCollective inCollective(communicator, device, "barrier");
  communicator.barrier(device);
}

void traceOp(const DeviceContext &device, const char *pointer) {
  if (device.communicator)
    device.communicator->noteOp(device, pointer);
}

} // namespace shardgen::runtime
