#include "ThreadsCommunicator.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "AxesKey.h"
#include "Reduce.h"
#include "shardgen/launch.h"

namespace shardgen::runtime {
namespace {

// Up to this size per device (all_reduce) or gathered (all_gather) a
// collective is latency bound: each device stages its input and reads all
// peers' staged inputs after one barrier (the whole buffer each: no
// reduce-scatter), so no second barrier waits for its readers.
constexpr int64_t kOnePhaseBytes = 32 * 1024;

// From this size per device an all-reduce's outputs do not stay cached until
// their owners read them: the fused all-gather writes them with streaming
// stores (no read-for-ownership), saving a third of the memory traffic.
constexpr int64_t kStreamingAllReduceBytes = 2 * 1024 * 1024;

// Writers of neighbouring all-reduce chunks never share a line of this size.
constexpr int64_t kCacheLineBytes = 64;

// Barriers after the publishing one: every member passed publish() and
// nothing between can throw, so all arrive; cancelling would let a thread
// free a buffer its peers are still reading.
constexpr bool kPeersReading = false;

const unsigned char *bytesOf(const void *pointer) {
  return static_cast<const unsigned char *>(pointer);
}
unsigned char *bytesOf(void *pointer) { return static_cast<unsigned char *>(pointer); }

} // namespace

ThreadsCommunicator::ThreadsCommunicator(int64_t numDevices, DeviceProgress &progress,
                                         int64_t stallPosition, const std::atomic<bool> *cancel)
    : spinFirst_(numDevices <= static_cast<int64_t>(std::thread::hardware_concurrency())),
      stallPosition_(stallPosition), cancel_(cancel), progress_(progress),
      meshBarrier_(numDevices, aborted_, spinFirst_), devices_(numDevices) {}

void ThreadsCommunicator::abort() {
  aborted_.store(true, std::memory_order_release);
  meshBarrier_.wake();
  std::lock_guard lock(registryMutex_);
  for (auto &[key, groupSet] : registry_)
    for (auto &group : groupSet->groups) {
      group->barrier.wake();
      group->handoff.wake();
    }
}

ThreadsCommunicator::GroupSet &ThreadsCommunicator::groupSetFor(const DeviceContext &device,
                                                                const CollectiveGroup &group) {
  uint64_t key = axesKey(group);
  DeviceState &state = devices_[device.position];
  for (auto &[cachedKey, groupSet] : state.groupSets)
    if (cachedKey == key)
      return *groupSet;
  std::lock_guard lock(registryMutex_);
  std::unique_ptr<GroupSet> &groupSet = registry_[key];
  if (!groupSet) {
    groupSet = std::make_unique<GroupSet>();
    for (int64_t index = 0; index < group.numGroups; ++index)
      groupSet->groups.push_back(std::make_unique<Group>(group.size, aborted_, spinFirst_));
  }
  state.groupSets.emplace_back(key, groupSet.get());
  return *groupSet;
}

std::pair<ThreadsCommunicator::Group &, const std::vector<ThreadsCommunicator::Member> &>
ThreadsCommunicator::publish(const DeviceContext &device, const CollectiveGroup &group,
                             const void *in, void *out, int64_t size, const char *collective) {
  Group &members = groupOf(device, group);
  std::vector<Member> &slots = members.nextMembers(group.position);
  slots[group.position] = Member{in, out, size};
  members.arriveAndWait(group.position, true); // cancellable: a failed peer never publishes
  // SPMD programs give every member the same shapes; anything else would
  // read out of bounds, so every member reports it.
  for (const Member &member : slots)
    if (member.size != size)
      throw std::invalid_argument(
          std::string(collective) + ": the devices of a group passed buffers of different sizes (" +
          std::to_string(size) + " vs " + std::to_string(member.size) + ")");
  return {members, slots};
}

unsigned char *ThreadsCommunicator::staging(Group &members, const CollectiveGroup &group,
                                            int64_t bytes) {
  Local &local = members.locals[group.position];
  std::vector<unsigned char> &buffer = local.staging[local.barrierRounds % 2];
  if (static_cast<int64_t>(buffer.size()) < bytes)
    buffer.resize(static_cast<size_t>(bytes));
  return buffer.data();
}

void ThreadsCommunicator::allReduce(const DeviceContext &device, const CollectiveGroup &group,
                                    ElementType type, Reducer reducer, const void *in, void *out,
                                    int64_t count) {
  int64_t bytes = elementBytes(type);
  if (group.size == 1) {
    if (in != out && count > 0)
      std::memcpy(out, in, static_cast<size_t>(count * bytes));
    return;
  }
  // Scratch is sized before publishing: past it nothing may throw (peers
  // wait for this device in barriers that cannot be cancelled).
  std::vector<const void *> &sources = devices_[device.position].sources;
  std::vector<void *> &destinations = devices_[device.position].destinations;
  sources.resize(group.size);
  destinations.resize(group.size);
  if (count * bytes <= kOnePhaseBytes) {
    // One phase: peers read this device's staged copy, which stays valid
    // until the group's next barrier, so nobody waits for the readers.
    // Reduced in position order, as below: the same bits.
    unsigned char *staged = staging(groupOf(device, group), group, count * bytes);
    if (count > 0)
      std::memcpy(staged, in, static_cast<size_t>(count * bytes));
    auto [members, slots] = publish(device, group, staged, out, count, "all_reduce");
    for (int64_t k = 0; k < group.size; ++k)
      sources[k] = slots[k].in;
    reduceSources(type, reducer, sources.data(), group.size, out, count);
    return;
  }

  auto [members, slots] = publish(device, group, in, out, count, "all_reduce");
  // Reduce-scatter fused with the all-gather: position p reduces chunk p of
  // every input and stores each reduced tile straight into every member's
  // output while it is still in cache, so no device reads a peer's output
  // back and one barrier round is saved. In place works: only p touches
  // chunk p of any buffer, and a tile is read in full before it is stored.
  // Chunks are whole cache lines, so on line-aligned buffers no two writers
  // share a line.
  int64_t lineElements = std::max<int64_t>(1, kCacheLineBytes / bytes);
  int64_t chunk = (count + group.size - 1) / group.size;
  chunk = (chunk + lineElements - 1) / lineElements * lineElements;
  int64_t begin = std::min(group.position * chunk, count);
  int64_t length = std::min(chunk, count - begin);
  for (int64_t k = 0; k < group.size; ++k) {
    sources[k] = bytesOf(slots[k].in) + begin * bytes;
    destinations[k] = bytesOf(slots[k].out) + begin * bytes;
  }
  ResultStores stores =
      count * bytes > kStreamingAllReduceBytes ? ResultStores::Streaming : ResultStores::Cached;
  reduceSourcesToAll(type, reducer, sources.data(), group.size, destinations.data(), group.size,
                     length, stores);
  members.arriveAndWait(group.position, kPeersReading);
}

void ThreadsCommunicator::allGather(const DeviceContext &device, const CollectiveGroup &group,
                                    const ChunkCopy &gather, const void *in, void *out) {
  if (group.size == 1) {
    gather.copy(in, 0, out, 0);
    return;
  }
  int64_t chunkBytes = gather.chunkBytes();
  if (chunkBytes * group.size <= kOnePhaseBytes) { // one phase, as in allReduce
    unsigned char *staged = staging(groupOf(device, group), group, chunkBytes);
    gather.withPackedDestination().copy(in, 0, staged, 0);
    auto [members, slots] = publish(device, group, staged, out, chunkBytes, "all_gather");
    ChunkCopy fromStaged = gather.withPackedSource();
    for (int64_t k = 0; k < group.size; ++k)
      fromStaged.copy(slots[k].in, 0, out, k);
    return;
  }
  auto [members, slots] = publish(device, group, in, out, chunkBytes, "all_gather");
  for (int64_t k = 0; k < group.size; ++k)
    gather.copy(slots[k].in, 0, out, k);
  members.arriveAndWait(group.position, kPeersReading);
}

void ThreadsCommunicator::reduceScatter(const DeviceContext &device, const CollectiveGroup &group,
                                        ElementType type, Reducer reducer, DimView inLayout,
                                        const void *in, void *out) {
  int64_t bytes = elementBytes(type);
  int64_t chunk = inLayout.extent / group.size * inLayout.inner; // elements per row
  int64_t rowBytes = inLayout.extent * inLayout.inner * bytes;
  std::vector<const void *> &sources = devices_[device.position].sources;
  sources.resize(group.size); // before publishing, as in allReduce
  auto [members, slots] =
      publish(device, group, in, out, inLayout.outer * rowBytes, "reduce_scatter");
  for (int64_t row = 0; row < inLayout.outer; ++row) {
    int64_t offset = row * rowBytes + group.position * chunk * bytes;
    for (int64_t k = 0; k < group.size; ++k)
      sources[k] = bytesOf(slots[k].in) + offset;
    reduceSources(type, reducer, sources.data(), group.size, bytesOf(out) + row * chunk * bytes,
                  chunk);
  }
  members.arriveAndWait(group.position, kPeersReading);
}

void ThreadsCommunicator::allToAll(const DeviceContext &device, const CollectiveGroup &group,
                                   const ChunkCopy &exchange, const void *in, void *out) {
  if (group.size == 1) {
    exchange.copy(in, 0, out, 0);
    return;
  }
  auto [members, slots] = publish(device, group, in, out, exchange.chunkBytes(), "all_to_all");
  for (int64_t k = 0; k < group.size; ++k)
    exchange.copy(slots[k].in, group.position, out, k);
  members.arriveAndWait(group.position, kPeersReading);
}

void ThreadsCommunicator::collectivePermute(const DeviceContext &device,
                                            const CollectiveGroup &group, int64_t source,
                                            int64_t /*destination*/, const void *in, void *out,
                                            int64_t bytes) {
  if (source == group.position) {
    if (in != out && bytes > 0)
      std::memcpy(out, in, static_cast<size_t>(bytes));
    return;
  }
  // Only pairs synchronize: post this device's buffer for its destination,
  // copy from the source's, return once the destination has read ours.
  Group &members = groupOf(device, group);
  int64_t round = ++members.locals[group.position].permuteRounds;
  members.handoff.post(group.position, round, {in, bytes});
  PairHandoff::Buffer from;
  try {
    from = members.handoff.claim(source, round);
  } catch (const PeerFailure &) {
    // Our destination may be reading our buffer: it must finish (or our
    // buffer be withdrawn) before the caller may free it.
    members.handoff.awaitRead(group.position, round);
    throw;
  }
  // Sizes are compared after the claim, and the claim is always released:
  // the source waits for it (nothing may throw in between).
  if (from.bytes == bytes && bytes > 0)
    std::memcpy(out, from.data, static_cast<size_t>(bytes));
  members.handoff.release(source, round);
  members.handoff.awaitRead(group.position, round);
  if (from.bytes != bytes)
    throw std::invalid_argument(
        "collective_permute: the devices of a group passed buffers of different sizes (" +
        std::to_string(bytes) + " vs " + std::to_string(from.bytes) + ")");
}

void ThreadsCommunicator::barrier(const DeviceContext &) { meshBarrier_.arriveAndWait(); }

void ThreadsCommunicator::exchange(const DeviceContext &device, const CollectiveGroup &group,
                                   const void *send, const int64_t *sendOffsets, void *recv,
                                   const int64_t *recvOffsets) {
  // Peers read this device's send buffer and offsets directly.
  struct Outbox {
    const void *send;
    const int64_t *offsets;
  } outbox{send, sendOffsets};
  auto [members, slots] = publish(device, group, &outbox, recv, 0, "exchange");
  // Lengths are checked only after every read (nothing may throw between
  // the barriers); a mismatch is reported by the receiver.
  int64_t mismatch = -1;
  for (int64_t q = 0; q < group.size; ++q) {
    if (q == group.position)
      continue;
    const auto &peer = *static_cast<const Outbox *>(slots[q].in);
    int64_t bytes = peer.offsets[group.position + 1] - peer.offsets[group.position];
    if (bytes != recvOffsets[q + 1] - recvOffsets[q]) {
      mismatch = q;
      continue;
    }
    if (bytes > 0)
      std::memcpy(bytesOf(recv) + recvOffsets[q], bytesOf(peer.send) + peer.offsets[group.position],
                  static_cast<size_t>(bytes));
  }
  members.arriveAndWait(group.position, kPeersReading);
  if (mismatch >= 0)
    throw std::invalid_argument("exchange: position " + std::to_string(mismatch) +
                                " sends a different number of bytes than position " +
                                std::to_string(group.position) + " expects");
}

void ThreadsCommunicator::noteOp(const DeviceContext &device, const char *pointer) {
  progress_.noteOp(device.position, pointer);
  auto cancelled = [&] { return cancel_ && cancel_->load(std::memory_order_relaxed); };
  if (device.position == stallPosition_) // test only: a device that never arrives
    while (!aborted_.load(std::memory_order_acquire) && !cancelled())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (cancelled())
    throw RunCancelled(); // the launcher then cancels the peers' collectives
  if (aborted_.load(std::memory_order_acquire))
    throw PeerFailure(); // another device failed: stop before the next step
}

void ThreadsCommunicator::noteCollective(const DeviceContext &device, const char *collective) {
  progress_.noteCollective(device.position, collective);
}

} // namespace shardgen::runtime
