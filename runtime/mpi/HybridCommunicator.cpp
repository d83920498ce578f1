#include "HybridCommunicator.h"

#include <algorithm>
#include <cstring>

#include "AxesKey.h"
#include "MpiCommunicator.h"
#include "Reduce.h"

namespace shardgen::runtime {
namespace {

/// The mesh position of group position `p` in group `index` over the axes
/// of `group`: listed axes from `p` (row-major, listed order), the others
/// from `index` (row-major, mesh order).
int64_t meshPosition(const DeviceMesh &mesh, const CollectiveGroup &group, int64_t index,
                     int64_t p) {
  std::vector<int64_t> coordinates(mesh.numAxes());
  std::vector<bool> listed(mesh.numAxes());
  for (int32_t i = group.numAxes - 1; i >= 0; --i) {
    int32_t axis = group.axes[i];
    listed[axis] = true;
    coordinates[axis] = p % mesh.axisSize(axis);
    p /= mesh.axisSize(axis);
  }
  for (int32_t axis = mesh.numAxes() - 1; axis >= 0; --axis) {
    if (listed[axis])
      continue;
    coordinates[axis] = index % mesh.axisSize(axis);
    index /= mesh.axisSize(axis);
  }
  return mesh.position(coordinates);
}

/// Chunk k of an all-reduce over n members: [begin, begin + length) elements.
struct ReduceChunk {
  int64_t begin, length;
};
ReduceChunk reduceChunk(int64_t count, int64_t n, int64_t k) {
  int64_t chunk = (count + n - 1) / n;
  int64_t begin = std::min(k * chunk, count);
  return {begin, std::min(chunk, count - begin)};
}

} // namespace

HybridCommunicator::HybridCommunicator(const DeviceMesh &mesh, MPI_Comm world,
                                       int64_t devicesPerRank, DeviceProgress &progress)
    : mesh_(mesh), devicesPerRank_(devicesPerRank), local_(mesh.numDevices(), progress),
      stepBarrier_(devicesPerRank, aborted_, false), slots_(devicesPerRank) {
  MPI_Comm_dup(world, &world_);
  MPI_Comm_rank(world_, &rank_);
  firstPosition_ = rank_ * devicesPerRank;
}

HybridCommunicator::~HybridCommunicator() {
  for (auto &[key, plan] : plans_)
    for (MPI_Comm &comm : plan->comms)
      if (comm != MPI_COMM_NULL)
        MPI_Comm_free(&comm);
  MPI_Comm_free(&world_);
}

HybridCommunicator::AxisPlan &HybridCommunicator::planFor(const CollectiveGroup &group) {
  std::lock_guard lock(plansMutex_);
  std::unique_ptr<AxisPlan> &plan = plans_[axesKey(group)];
  if (plan)
    return *plan;
  plan = std::make_unique<AxisPlan>();
  plan->members.resize(group.numGroups);
  plan->comms.assign(group.numGroups, MPI_COMM_NULL);
  for (int64_t index = 0; index < group.numGroups; ++index) {
    for (int64_t p = 0; p < group.size; ++p) {
      int rank = static_cast<int>(meshPosition(mesh_, group, index, p) / devicesPerRank_);
      plan->members[index][rank].push_back(p);
    }
    plan->crossesRanks = plan->crossesRanks || plan->members[index].size() > 1;
  }
  return *plan;
}

void HybridCommunicator::rankStep(const DeviceContext &device, const Slot &slot,
                                  const std::function<void(const std::vector<Slot> &)> &move) {
  const int64_t local = device.position - firstPosition_;
  slots_[local] = slot;
  stepBarrier_.arriveAndWait();
  if (local == 0)
    move(slots_);
  stepBarrier_.arriveAndWait();
}

void HybridCommunicator::splitComms(AxisPlan &plan) {
  if (plan.commsSplit)
    return;
  plan.commsSplit = true;
  // Key = world rank: a group communicator ranks its members' ranks in the
  // order of AxisPlan::members.
  for (size_t index = 0; index < plan.members.size(); ++index)
    if (plan.members[index].size() > 1)
      MPI_Comm_split(world_, plan.members[index].count(rank_) ? 0 : MPI_UNDEFINED, rank_,
                     &plan.comms[index]);
}

void HybridCommunicator::exchangeGroups(AxisPlan &plan, const std::vector<Slot> &slots,
                                        const Exchange &exchange) {
  splitComms(plan);
  std::map<int64_t, std::vector<const Slot *>> byGroup; // this rank's members, by group
  for (const Slot &slot : slots)
    byGroup[slot.group.index].push_back(&slot);
  for (auto &[index, locals] : byGroup) {
    std::sort(locals.begin(), locals.end(),
              [](const Slot *a, const Slot *b) { return a->group.position < b->group.position; });
    const std::map<int, std::vector<int64_t>> &ranks = plan.members[index];
    // To each rank: for each of its members p, what each local member q sends
    // p; from each rank: for each local p, what each of its members q sent.
    std::vector<int> sendBytes, sendOffsets, receiveBytes, receiveOffsets;
    int64_t sendTotal = 0, receiveTotal = 0;
    for (const auto &[rank, positions] : ranks) {
      int64_t out = 0, in = 0;
      for (int64_t p : positions)
        for (const Slot *q : locals)
          out += exchange.bytes(q->group.position, p);
      for (const Slot *p : locals)
        for (int64_t q : positions)
          in += exchange.bytes(q, p->group.position);
      sendOffsets.push_back(mpiCount(sendTotal));
      sendBytes.push_back(mpiCount(out));
      receiveOffsets.push_back(mpiCount(receiveTotal));
      receiveBytes.push_back(mpiCount(in));
      sendTotal += out;
      receiveTotal += in;
    }
    send_.resize(static_cast<size_t>(sendTotal));
    unsigned char *to = send_.data();
    for (const auto &[rank, positions] : ranks)
      for (int64_t p : positions)
        for (const Slot *q : locals) {
          exchange.pack(*q, p, to);
          to += exchange.bytes(q->group.position, p);
        }
    if (ranks.size() == 1) { // the group lies inside this rank
      receive_.swap(send_);
    } else {
      receive_.resize(static_cast<size_t>(receiveTotal));
      MPI_Alltoallv(send_.data(), sendBytes.data(), sendOffsets.data(), MPI_BYTE, receive_.data(),
                    receiveBytes.data(), receiveOffsets.data(), MPI_BYTE, plan.comms[index]);
    }
    const unsigned char *from = receive_.data();
    for (const auto &[rank, positions] : ranks)
      for (const Slot *p : locals)
        for (int64_t q : positions) {
          exchange.unpack(q, *p, from);
          from += exchange.bytes(q, p->group.position);
        }
    if (exchange.finish)
      for (const Slot *p : locals)
        exchange.finish(*p);
  }
}

void HybridCommunicator::allReduce(const DeviceContext &device, const CollectiveGroup &group,
                                   ElementType type, Reducer reducer, const void *in, void *out,
                                   int64_t count) {
  AxisPlan &plan = planFor(group);
  if (!plan.crossesRanks)
    return local_.allReduce(device, group, type, reducer, in, out, count);
  const int64_t bytes = elementBytes(type), n = group.size;
  rankStep(device, Slot{in, out, group}, [&](const std::vector<Slot> &slots) {
    // Member p reduces chunk p of every input in position order (as the
    // other backends), then every member receives every reduced chunk.
    std::map<int64_t, std::vector<const void *>> sources; // by local position
    Exchange scatter;
    scatter.bytes = [&](int64_t, int64_t p) { return reduceChunk(count, n, p).length * bytes; };
    scatter.pack = [&](const Slot &source, int64_t p, unsigned char *to) {
      ReduceChunk chunk = reduceChunk(count, n, p);
      std::memcpy(to, static_cast<const unsigned char *>(source.in) + chunk.begin * bytes,
                  static_cast<size_t>(chunk.length * bytes));
    };
    scatter.unpack = [&](int64_t q, const Slot &destination, const unsigned char *from) {
      auto &list = sources[destination.group.position];
      list.resize(n);
      list[q] = from;
    };
    scatter.finish = [&](const Slot &destination) {
      ReduceChunk chunk = reduceChunk(count, n, destination.group.position);
      reduceSources(type, reducer, sources[destination.group.position].data(), n,
                    static_cast<unsigned char *>(destination.out) + chunk.begin * bytes,
                    chunk.length);
    };
    exchangeGroups(plan, slots, scatter);
    Exchange gather;
    gather.bytes = [&](int64_t q, int64_t) { return reduceChunk(count, n, q).length * bytes; };
    gather.pack = [&](const Slot &source, int64_t, unsigned char *to) {
      ReduceChunk chunk = reduceChunk(count, n, source.group.position);
      std::memcpy(to, static_cast<const unsigned char *>(source.out) + chunk.begin * bytes,
                  static_cast<size_t>(chunk.length * bytes));
    };
    gather.unpack = [&](int64_t q, const Slot &destination, const unsigned char *from) {
      if (q == destination.group.position)
        return; // its own chunk, reduced in place
      ReduceChunk chunk = reduceChunk(count, n, q);
      std::memcpy(static_cast<unsigned char *>(destination.out) + chunk.begin * bytes, from,
                  static_cast<size_t>(chunk.length * bytes));
    };
    exchangeGroups(plan, slots, gather);
  });
}

void HybridCommunicator::allGather(const DeviceContext &device, const CollectiveGroup &group,
                                   const ChunkCopy &gather, const void *in, void *out) {
  AxisPlan &plan = planFor(group);
  if (!plan.crossesRanks)
    return local_.allGather(device, group, gather, in, out);
  rankStep(device, Slot{in, out, group}, [&](const std::vector<Slot> &slots) {
    const ChunkCopy pack = gather.withPackedDestination(), unpack = gather.withPackedSource();
    Exchange exchange;
    exchange.bytes = [&](int64_t, int64_t) { return gather.chunkBytes(); };
    exchange.pack = [&](const Slot &source, int64_t, unsigned char *to) {
      pack.copy(source.in, 0, to, 0);
    };
    exchange.unpack = [&](int64_t q, const Slot &destination, const unsigned char *from) {
      unpack.copy(from, 0, destination.out, q);
    };
    exchangeGroups(plan, slots, exchange);
  });
}

void HybridCommunicator::reduceScatter(const DeviceContext &device, const CollectiveGroup &group,
                                       ElementType type, Reducer reducer, DimView inLayout,
                                       const void *in, void *out) {
  AxisPlan &plan = planFor(group);
  if (!plan.crossesRanks)
    return local_.reduceScatter(device, group, type, reducer, inLayout, in, out);
  rankStep(device, Slot{in, out, group}, [&](const std::vector<Slot> &slots) {
    const int64_t bytes = elementBytes(type), n = group.size;
    const int64_t chunkElements = inLayout.extent / n * inLayout.inner; // per row
    const ChunkCopy split = reduceScatterSplit(inLayout, n, bytes);
    std::map<int64_t, std::vector<const void *>> sources; // by local position
    Exchange exchange;
    exchange.bytes = [&](int64_t, int64_t) { return split.chunkBytes(); };
    exchange.pack = [&](const Slot &source, int64_t p, unsigned char *to) {
      split.copy(source.in, p, to, 0);
    };
    exchange.unpack = [&](int64_t q, const Slot &destination, const unsigned char *from) {
      auto &list = sources[destination.group.position];
      list.resize(n);
      list[q] = from;
    };
    exchange.finish = [&](const Slot &destination) {
      reduceSources(type, reducer, sources[destination.group.position].data(), n, destination.out,
                    inLayout.outer * chunkElements);
    };
    exchangeGroups(plan, slots, exchange);
  });
}

void HybridCommunicator::allToAll(const DeviceContext &device, const CollectiveGroup &group,
                                  const ChunkCopy &exchangeCopy, const void *in, void *out) {
  AxisPlan &plan = planFor(group);
  if (!plan.crossesRanks)
    return local_.allToAll(device, group, exchangeCopy, in, out);
  rankStep(device, Slot{in, out, group}, [&](const std::vector<Slot> &slots) {
    const ChunkCopy pack = exchangeCopy.withPackedDestination();
    const ChunkCopy unpack = exchangeCopy.withPackedSource();
    Exchange exchange;
    exchange.bytes = [&](int64_t, int64_t) { return exchangeCopy.chunkBytes(); };
    exchange.pack = [&](const Slot &source, int64_t p, unsigned char *to) {
      pack.copy(source.in, p, to, 0);
    };
    exchange.unpack = [&](int64_t q, const Slot &destination, const unsigned char *from) {
      unpack.copy(from, 0, destination.out, q);
    };
    exchangeGroups(plan, slots, exchange);
  });
}

void HybridCommunicator::collectivePermute(const DeviceContext &device,
                                           const CollectiveGroup &group, int64_t source,
                                           int64_t destination, const void *in, void *out,
                                           int64_t bytes) {
  AxisPlan &plan = planFor(group);
  if (!plan.crossesRanks || source == group.position)
    return local_.collectivePermute(device, group, source, destination, in, out, bytes);
  const int64_t n = group.size, shift = (destination - group.position + n) % n;
  rankStep(device, Slot{in, out, group}, [&](const std::vector<Slot> &slots) {
    Exchange exchange;
    exchange.bytes = [&](int64_t q, int64_t p) { return p == (q + shift) % n ? bytes : 0; };
    exchange.pack = [&](const Slot &from, int64_t p, unsigned char *to) {
      if (p == (from.group.position + shift) % n && bytes > 0)
        std::memcpy(to, from.in, static_cast<size_t>(bytes));
    };
    exchange.unpack = [&](int64_t q, const Slot &to, const unsigned char *from) {
      if (to.group.position == (q + shift) % n && bytes > 0)
        std::memcpy(to.out, from, static_cast<size_t>(bytes));
    };
    exchangeGroups(plan, slots, exchange);
  });
}

void HybridCommunicator::barrier(const DeviceContext &device) {
  rankStep(device, Slot{}, [&](const std::vector<Slot> &) { MPI_Barrier(world_); });
}

const HybridCommunicator::Slot *HybridCommunicator::localSlot(const std::vector<Slot> &slots,
                                                              int64_t p) const {
  const int64_t local = p - firstPosition_;
  return local >= 0 && local < devicesPerRank_ ? &slots[local] : nullptr;
}

namespace {

/// A device's part of an exchange, published through its slot's `out`.
struct ExchangeMailbox {
  const unsigned char *send;
  const int64_t *sendOffsets;
  unsigned char *recv;
  const int64_t *recvOffsets;
  std::vector<int64_t> sentBytes; // by source position, as the senders announced
  int64_t bytesTo(int64_t p) const { return sendOffsets[p + 1] - sendOffsets[p]; }
  bool expects(int64_t q) const { return sentBytes[q] == recvOffsets[q + 1] - recvOffsets[q]; }
};

ExchangeMailbox &mailboxOf(const HybridCommunicator::Slot &slot) {
  return *static_cast<ExchangeMailbox *>(slot.out);
}

} // namespace

void HybridCommunicator::exchange(const DeviceContext &device, const CollectiveGroup &group,
                                  const void *send, const int64_t *sendOffsets, void *recv,
                                  const int64_t *recvOffsets) {
  AxisPlan &plan = planFor(group);
  if (!plan.crossesRanks)
    return local_.exchange(device, group, send, sendOffsets, recv, recvOffsets);
  ExchangeMailbox mine{static_cast<const unsigned char *>(send), sendOffsets,
                       static_cast<unsigned char *>(recv), recvOffsets,
                       std::vector<int64_t>(group.size)};
  rankStep(device, Slot{nullptr, &mine, group}, [&](const std::vector<Slot> &slots) {
    // The lengths first, so a receiver that expects another length is an
    // error (below, on its device) rather than a truncated message.
    Exchange lengths;
    lengths.bytes = [](int64_t q, int64_t p) { return q == p ? 0 : int64_t{sizeof(int64_t)}; };
    lengths.pack = [](const Slot &source, int64_t p, unsigned char *to) {
      if (p == source.group.position)
        return;
      const int64_t bytes = mailboxOf(source).bytesTo(p);
      std::memcpy(to, &bytes, sizeof bytes);
    };
    lengths.unpack = [](int64_t q, const Slot &destination, const unsigned char *from) {
      if (q != destination.group.position)
        std::memcpy(&mailboxOf(destination).sentBytes[q], from, sizeof(int64_t));
    };
    exchangeGroups(plan, slots, lengths);
    Exchange bytes;
    bytes.bytes = [&](int64_t q, int64_t p) -> int64_t {
      if (q == p)
        return 0; // its own segment is not moved
      const Slot *source = localSlot(slots, q);
      return source ? mailboxOf(*source).bytesTo(p) : mailboxOf(*localSlot(slots, p)).sentBytes[q];
    };
    bytes.pack = [](const Slot &source, int64_t p, unsigned char *to) {
      const ExchangeMailbox &box = mailboxOf(source);
      if (p != source.group.position && box.bytesTo(p) > 0)
        std::memcpy(to, box.send + box.sendOffsets[p], static_cast<size_t>(box.bytesTo(p)));
    };
    bytes.unpack = [](int64_t q, const Slot &destination, const unsigned char *from) {
      ExchangeMailbox &box = mailboxOf(destination);
      if (q != destination.group.position && box.expects(q) && box.sentBytes[q] > 0)
        std::memcpy(box.recv + box.recvOffsets[q], from, static_cast<size_t>(box.sentBytes[q]));
    };
    exchangeGroups(plan, slots, bytes);
  });
  requireExchangeLengths(group.position, mine.sentBytes.data(), recvOffsets, group.size);
}

void HybridCommunicator::noteOp(const DeviceContext &device, const char *pointer) {
  local_.noteOp(device, pointer);
}

void HybridCommunicator::noteCollective(const DeviceContext &device, const char *collective) {
  local_.noteCollective(device, collective);
}

} // namespace shardgen::runtime
