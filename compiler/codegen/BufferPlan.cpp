#include "compiler/codegen/BufferPlan.h"

#include "compiler/codegen/BufferViews.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <set>

namespace shardgen::codegen {
namespace {

/// The largest piece (a full chunk: device 0's; with a halo an interior
/// piece's, the chunk shape), 64-aligned.
int64_t slotBytes(const ShardLayout &layout) {
  int64_t bytes = localBytes(layout, 0);
  if (layout.hasHalo()) {
    bytes = static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
    for (int64_t extent : layout.chunkShape())
      bytes *= extent;
  }
  return (bytes + 63) / 64 * 64;
}

struct Lifetime {
  int64_t first = 0, last = -1; // emission steps; -1 = before all, numSteps = after all
  bool used = false;
  void cover(int64_t step) {
    first = used ? std::min(first, step) : step;
    last = used ? std::max(last, step) : step;
    used = true;
  }
};

/// Each value's buffer owner: itself, or (through views, BufferViews.h) the
/// value whose slot it points into. A loop's invariant carried value is a
/// view of its input (visited before the steps of its body).
std::vector<SpmdValueId> bufferOwners(const SpmdProgram &program) {
  std::vector<SpmdValueId> owner(program.values.size());
  for (size_t v = 0; v < owner.size(); ++v)
    owner[v] = static_cast<SpmdValueId>(v);
  forEachStep(program.steps, [&](const SpmdStep &step) {
    for (size_t i = 0; i < step.carried.size(); ++i)
      if (isInvariantCarry(step, i))
        owner[step.carried[i]] = owner[step.inputs[i]];
    for (size_t i = 0; i < step.outputs.size(); ++i)
      if (std::optional<ViewOf> view = viewOf(program, step, i))
        owner[step.outputs[i]] = owner[view->source];
  });
  return owner;
}

/// Per owner, the emission steps its buffer is live over.
std::vector<Lifetime> ownerLifetimes(const SpmdProgram &program, const FusionPlan &fusion,
                                     const std::vector<SpmdValueId> &owner) {
  const int64_t numSteps = static_cast<int64_t>(program.steps.size());
  std::vector<Lifetime> life(program.values.size());
  for (SpmdValueId v : program.inputs)
    life[owner[v]].cover(-1);
  for (int64_t s = 0; s < numSteps; ++s) {
    const SpmdStep &step = program.steps[s];
    const int64_t at = static_cast<int64_t>(fusion.emissionStep(static_cast<size_t>(s)));
    for (SpmdValueId v : step.inputs)
      life[owner[v]].cover(at);
    for (SpmdValueId v : step.outputs)
      life[owner[v]].cover(at);
    // A loop's or branch's own values (carried ones across iterations) all
    // live while it runs: none shares a slot with another or with what the
    // step reads and writes.
    forEachNestedValue(step, [&](SpmdValueId v) { life[owner[v]].cover(at); });
  }
  for (SpmdValueId v : program.liveOutValues())
    life[owner[v]].cover(numSteps);
  return life;
}

struct Slot {
  int64_t bytes = 0;
  ElementType type = ElementType::F32;
};

/// Greedy slot assignment of the values in `order` (by start of life): a
/// free slot that is large enough (the smallest such, the first of equals),
/// else the largest free slot grown, else a new slot. A slot only ever holds
/// one element type: kernels access buffers as their element type, and
/// type-based alias analysis may reorder accesses of different types to the
/// same bytes (data movement uses may-alias words, see
/// templates/kernels/layout.h). Interval-based: busy slots wait in a heap by
/// the end of their occupant's life and move to their type's free set (by
/// size) as the values, taken by start, pass it; O(n log n).
std::vector<int64_t> assignSlots(const SpmdProgram &program, const std::vector<SpmdValueId> &order,
                                 const std::vector<Lifetime> &life,
                                 const std::vector<int64_t> &bytesOf, std::vector<Slot> &slots) {
  using BusySlot = std::pair<int64_t, int64_t>; // (last step of the occupant, slot)
  std::priority_queue<BusySlot, std::vector<BusySlot>, std::greater<>> busy;
  std::map<ElementType, std::set<std::pair<int64_t, int64_t>>> freeSlots; // (bytes, slot)
  std::vector<int64_t> slotOf(program.values.size(), -1);
  for (SpmdValueId v : order) {
    while (!busy.empty() && busy.top().first < life[v].first) {
      const int64_t slot = busy.top().second;
      busy.pop();
      freeSlots[slots[slot].type].insert({slots[slot].bytes, slot});
    }
    const int64_t bytes = bytesOf[v];
    const ElementType type = program.layout(v).globalType.elementType;
    std::set<std::pair<int64_t, int64_t>> &candidates = freeSlots[type];
    auto chosen = candidates.lower_bound({bytes, -1});
    if (chosen == candidates.end() && !candidates.empty()) // the largest, grown
      chosen = candidates.lower_bound({std::prev(candidates.end())->first, -1});
    int64_t slot;
    if (chosen != candidates.end()) {
      slot = chosen->second;
      candidates.erase(chosen);
    } else {
      slot = static_cast<int64_t>(slots.size());
      slots.push_back(Slot{0, type});
    }
    slots[slot].bytes = std::max(slots[slot].bytes, bytes);
    busy.push({life[v].last, slot});
    slotOf[v] = slot;
  }
  return slotOf;
}

} // namespace

BufferPlan planBuffers(const SpmdProgram &program, const FusionPlan &fusion,
                       const InputBinding &binding) {
  const size_t numValues = program.values.size();
  const int64_t numSteps = static_cast<int64_t>(program.steps.size());
  const std::vector<SpmdValueId> owner = bufferOwners(program);
  std::vector<Lifetime> life = ownerLifetimes(program, fusion, owner);

  // Values that need a slot, by when they start (then by id: deterministic).
  std::vector<SpmdValueId> order;
  for (size_t v = 0; v < numValues; ++v) {
    if (owner[v] != static_cast<SpmdValueId>(v) || fusion.fusedAway[v] ||
        binding.boundInPlace(owner[v]))
      continue;
    if (!life[v].used) // never touched by any step: keep it for the whole run
      life[v] = Lifetime{-1, numSteps, true};
    order.push_back(static_cast<SpmdValueId>(v));
  }
  // An owner's slot holds the largest piece of any value aliasing it.
  std::vector<int64_t> bytesOf(numValues, 0);
  for (size_t v = 0; v < numValues; ++v)
    bytesOf[owner[v]] = std::max(bytesOf[owner[v]], slotBytes(program.layout(v)));
  std::stable_sort(order.begin(), order.end(),
                   [&](SpmdValueId a, SpmdValueId b) { return life[a].first < life[b].first; });

  std::vector<Slot> slots;
  const std::vector<int64_t> slotOf = assignSlots(program, order, life, bytesOf, slots);
  std::vector<int64_t> slotOffsets;
  BufferPlan plan;
  int64_t at = 0;
  for (const Slot &slot : slots) {
    slotOffsets.push_back(at);
    at += slot.bytes;
  }
  plan.arenaBytes = std::max<int64_t>(at, 64);
  plan.offsets.assign(numValues, 0);
  for (size_t v = 0; v < numValues; ++v) {
    const int64_t slot = slotOf[owner[v]];
    plan.offsets[v] = slot >= 0 ? slotOffsets[slot] : 0;
  }
  return plan;
}

} // namespace shardgen::codegen
