#include "compiler/partition/Reshard.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "compiler/ir/InternalError.h"
#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/Redistribution.h"

namespace shardgen {
namespace {

bool contains(const std::vector<AxisRef> &axes, const AxisRef &axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

bool isPrefix(const std::vector<AxisRef> &prefix, const std::vector<AxisRef> &full) {
  return prefix.size() <= full.size() && std::equal(prefix.begin(), prefix.end(), full.begin());
}

size_t commonPrefixLength(const std::vector<AxisRef> &a, const std::vector<AxisRef> &b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n])
    ++n;
  return n;
}

/// Whether `axis` shares devices with an axis the layout uses (dims or partial).
bool overlapsUsed(const Mesh &mesh, const AxisRef &axis, const DimAxes &dims,
                  const std::vector<AxisRef> &partial) {
  auto hit = [&](const AxisRef &other) { return axis.overlaps(other, mesh); };
  for (const auto &dim : dims)
    if (std::any_of(dim.begin(), dim.end(), hit))
      return true;
  return std::any_of(partial.begin(), partial.end(), hit);
}

bool sameBoxOnDim(const ShardLayout &a, int64_t deviceA, const ShardLayout &b, int64_t deviceB,
                  int64_t dim) {
  return a.offset(deviceA, dim) == b.offset(deviceB, dim) &&
         a.extent(deviceA, dim) == b.extent(deviceB, dim);
}

bool sameBoxExcept(const ShardLayout &a, int64_t deviceA, const ShardLayout &b, int64_t deviceB,
                   std::initializer_list<int64_t> skipped) {
  for (int64_t d = 0; d < a.rank(); ++d)
    if (std::find(skipped.begin(), skipped.end(), d) == skipped.end() &&
        !sameBoxOnDim(a, deviceA, b, deviceB, d))
      return false;
  return true;
}

/// AllSlice is exact when every device's new piece lies inside its old one.
bool sliceExact(const ShardLayout &from, const ShardLayout &to) {
  for (int64_t device = 0; device < from.numDevices(); ++device)
    for (int64_t d = 0; d < from.rank(); ++d) {
      int64_t begin = to.offset(device, d), extent = to.extent(device, d);
      if (extent != 0 && (begin < from.offset(device, d) ||
                          begin + extent > from.offset(device, d) + from.extent(device, d)))
        return false;
    }
  return true;
}

/// Whether concatenating a group's pieces along `dim` in position order
/// gives each member exactly its new range there (as an all_gather's or an
/// all_to_all's concatenation does). `group` lists the members by position.
bool concatenationExact(const ShardLayout &from, const ShardLayout &to, int64_t dim,
                        const std::vector<int64_t> &group) {
  // The pieces, skipping empty ones, must follow each other from the first.
  int64_t begin = -1, end = 0;
  for (int64_t member : group) {
    const int64_t extent = from.extent(member, dim);
    if (extent == 0)
      continue;
    if (begin < 0)
      begin = end = from.offset(member, dim);
    if (from.offset(member, dim) != end)
      return false;
    end += extent;
  }
  for (int64_t member : group)
    if (begin < 0 ? to.extent(member, dim) != 0
                  : to.offset(member, dim) != begin || to.extent(member, dim) != end - begin)
      return false;
  return true;
}

/// Each group's devices hold, on every dim but `skipped`, the same box in
/// `from` and in `to` (what every member sending to every other needs:
/// pairwise agreement is agreement with the first member).
bool groupSharesBoxes(const ShardLayout &from, const ShardLayout &to,
                      const std::vector<int64_t> &group, std::initializer_list<int64_t> skipped) {
  const int64_t first = group.front();
  for (int64_t member : group)
    if (!sameBoxExcept(from, member, from, first, skipped) ||
        !sameBoxExcept(from, first, to, member, skipped))
      return false;
  return true;
}

/// Calls `check` with each group over `axes` (its members by position) once;
/// true when every call is. Linear in the devices.
template <typename Check>
bool everyGroup(const Mesh &mesh, const std::vector<AxisRef> &axes, Check check) {
  for (int64_t device = 0; device < mesh.numDevices(); ++device)
    if (groupLeader(mesh, axes, device) == device && !check(groupDevices(mesh, axes, device)))
      return false;
  return true;
}

bool gatherExact(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to, int64_t dim,
                 const std::vector<AxisRef> &axes) {
  return everyGroup(mesh, axes, [&](const std::vector<int64_t> &group) {
    return groupSharesBoxes(from, to, group, {dim}) && concatenationExact(from, to, dim, group);
  });
}

/// Position k keeps chunk k (of equal size) of its piece's `dim`.
bool equalChunkExact(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to, int64_t dim,
                     const std::vector<AxisRef> &axes, int64_t sender, int64_t position,
                     int64_t receiver) {
  int64_t groupSize = axesSize(mesh, axes);
  int64_t extent = from.extent(sender, dim);
  if (extent % groupSize != 0)
    return false;
  int64_t chunk = extent / groupSize;
  return to.extent(receiver, dim) == chunk &&
         (chunk == 0 || to.offset(receiver, dim) == from.offset(sender, dim) + position * chunk);
}

bool reduceScatterExact(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to,
                        int64_t dim, const std::vector<AxisRef> &axes) {
  for (int64_t device = 0; device < mesh.numDevices(); ++device)
    if (!sameBoxExcept(from, device, to, device, {dim}) ||
        !equalChunkExact(mesh, from, to, dim, axes, device, indexOverAxes(mesh, axes, device),
                         device))
      return false;
  return true;
}

bool allToAllExact(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to,
                   int64_t splitDim, int64_t concatDim, const std::vector<AxisRef> &axes) {
  const int64_t groupSize = axesSize(mesh, axes);
  return everyGroup(mesh, axes, [&](const std::vector<int64_t> &group) {
    if (!groupSharesBoxes(from, to, group, {splitDim, concatDim}) ||
        !concatenationExact(from, to, concatDim, group))
      return false;
    // Every sender cuts the same range of splitDim into groupSize equal
    // chunks and the member at position k receives chunk k.
    const int64_t begin = from.offset(group.front(), splitDim);
    const int64_t extent = from.extent(group.front(), splitDim);
    if (extent % groupSize != 0)
      return false;
    const int64_t chunk = extent / groupSize;
    for (size_t k = 0; k < group.size(); ++k) {
      const int64_t member = group[k];
      if (from.extent(member, splitDim) != extent || to.extent(member, splitDim) != chunk ||
          (chunk != 0 && (from.offset(member, splitDim) != begin ||
                          to.offset(member, splitDim) != begin + static_cast<int64_t>(k) * chunk)))
        return false;
    }
    return true;
  });
}

SpmdStep collective(StepKind kind, std::vector<AxisRef> axes, int64_t dimension = -1) {
  SpmdStep step;
  step.kind = kind;
  step.axes = std::move(axes);
  step.dimension = dimension;
  return step;
}

/// Builds a plan step by step from a current layout.
class PlanBuilder {
public:
  PlanBuilder(const Mesh &mesh, ShardLayout start) : mesh_(mesh), current_(std::move(start)) {}

  const ShardLayout &current() const { return current_; }
  ReshardPlan take() { return std::move(plan_); }

  void emit(SpmdStep step, ShardLayout next) {
    for (const auto &traffic : stepTraffic(mesh_, step, current_, next))
      plan_.bytesReceived += traffic.received;
    plan_.steps.push_back(PlannedStep{std::move(step), next});
    current_ = std::move(next);
  }

  ShardLayout withDims(const DimAxes &dims, const std::vector<AxisRef> &partial) const {
    return makeShardLayout(mesh_, current_.globalType, dims, partial, current_.partialReducer);
  }
  ShardLayout withDims(const DimAxes &dims) const { return withDims(dims, current_.partialAxes); }

  /// Reduces the partial axes `to` does not keep: reduce_scatter onto a dim
  /// that the target extends by them, all_reduce for the rest.
  void reducePartialAxes(const ShardLayout &to) {
    std::vector<AxisRef> kept, reduced;
    for (const auto &axis : current_.partialAxes)
      (contains(to.partialAxes, axis) ? kept : reduced).push_back(axis);
    if (reduced.empty())
      return;
    DimAxes dims = dimAxesOf(current_), goal = dimAxesOf(to);
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!isPrefix(dims[d], goal[d]))
        continue;
      std::vector<AxisRef> run;
      for (size_t i = dims[d].size(); i < goal[d].size() && contains(reduced, goal[d][i]); ++i)
        run.push_back(goal[d][i]);
      if (run.empty())
        continue;
      DimAxes next = dims;
      next[d].insert(next[d].end(), run.begin(), run.end());
      std::vector<AxisRef> partial;
      for (const auto &axis : current_.partialAxes)
        if (!contains(run, axis))
          partial.push_back(axis);
      ShardLayout scattered = withDims(next, partial);
      if (!reduceScatterExact(mesh_, current_, scattered, static_cast<int64_t>(d), run))
        continue;
      SpmdStep step = collective(StepKind::ReduceScatter, run, static_cast<int64_t>(d));
      step.reducer = current_.partialReducer;
      emit(std::move(step), scattered);
      std::erase_if(reduced, [&](const AxisRef &axis) { return contains(run, axis); });
      break;
    }
    if (reduced.empty())
      return;
    SpmdStep step = collective(StepKind::AllReduce, reduced);
    step.reducer = current_.partialReducer;
    emit(std::move(step), withDims(dimAxesOf(current_), kept));
  }

  /// Brings the dims to `goal` (partial axes unchanged).
  void moveDims(const DimAxes &goal) {
    for (int iteration = 0; dimAxesOf(current_) != goal; ++iteration) {
      SHARDGEN_CHECK(iteration <= 64 &&
                         (sliceFreeAdditions(goal) || moveByAllToAll(goal) || gatherRemovals(goal)),
                     "reshard planning made no progress");
    }
  }

private:
  /// One all_slice adding, on every dim whose axes are a prefix of the goal,
  /// the next goal axes no other dim still uses. Dims where that would not
  /// be exact are marked for a full gather.
  bool sliceFreeAdditions(const DimAxes &goal) {
    DimAxes dims = dimAxesOf(current_), next = dims;
    bool any = false;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!isPrefix(dims[d], goal[d]))
        continue;
      DimAxes single = dims;
      for (size_t i = dims[d].size(); i < goal[d].size(); ++i) {
        if (overlapsUsed(mesh_, goal[d][i], next, current_.partialAxes))
          break;
        single[d].push_back(goal[d][i]);
      }
      if (single[d].size() == dims[d].size())
        continue;
      if (sliceExact(current_, withDims(single))) {
        next[d] = single[d];
        any = true;
      } else {
        gatherWhole_.push_back(static_cast<int64_t>(d));
      }
    }
    if (!any)
      return false;
    emit(collective(StepKind::AllSlice, {}), withDims(next));
    return true;
  }

  /// An axis leaving the minor end of one dim for the minor end of another.
  bool moveByAllToAll(const DimAxes &goal) {
    DimAxes dims = dimAxesOf(current_);
    for (size_t from = 0; from < dims.size(); ++from) {
      if (dims[from].empty() || isPrefix(dims[from], goal[from]))
        continue;
      const AxisRef axis = dims[from].back();
      for (size_t to = 0; to < dims.size(); ++to) {
        if (to == from || !isPrefix(dims[to], goal[to]) || goal[to].size() <= dims[to].size() ||
            goal[to][dims[to].size()] != axis)
          continue;
        DimAxes next = dims;
        next[from].pop_back();
        next[to].push_back(axis);
        ShardLayout moved = withDims(next);
        if (!allToAllExact(mesh_, current_, moved, static_cast<int64_t>(to),
                           static_cast<int64_t>(from), {axis}))
          continue;
        SpmdStep step = collective(StepKind::AllToAll, {axis}, static_cast<int64_t>(to));
        step.concatDimension = static_cast<int64_t>(from);
        emit(std::move(step), moved);
        return true;
      }
    }
    return false;
  }

  /// Gathers the minor axes of one dim that the goal does not keep (all of
  /// its axes where the kept prefix's chunks would not concatenate exactly).
  bool gatherRemovals(const DimAxes &goal) {
    DimAxes dims = dimAxesOf(current_);
    for (size_t d = 0; d < dims.size(); ++d) {
      bool whole = std::find(gatherWhole_.begin(), gatherWhole_.end(), static_cast<int64_t>(d)) !=
                   gatherWhole_.end();
      if (dims[d].empty() || (isPrefix(dims[d], goal[d]) && !whole))
        continue;
      size_t keep = whole ? 0 : commonPrefixLength(dims[d], goal[d]);
      DimAxes next = dims;
      next[d].resize(keep);
      ShardLayout gathered = withDims(next);
      std::vector<AxisRef> axes(dims[d].begin() + static_cast<std::ptrdiff_t>(keep), dims[d].end());
      if (!gatherExact(mesh_, current_, gathered, static_cast<int64_t>(d), axes)) {
        axes = dims[d];
        next[d].clear();
        gathered = withDims(next);
      }
      std::erase(gatherWhole_, static_cast<int64_t>(d));
      emit(collective(StepKind::AllGather, axes, static_cast<int64_t>(d)), gathered);
      return true;
    }
    return false;
  }

  const Mesh &mesh_;
  ShardLayout current_;
  ReshardPlan plan_;
  std::vector<int64_t> gatherWhole_;
};

/// One collective_permute when every device's target piece is exactly some
/// other device's current piece, each source used once.
std::optional<PlannedStep> permutationStep(const Mesh &mesh, const ShardLayout &from,
                                           const ShardLayout &to) {
  int64_t numDevices = mesh.numDevices();
  auto box = [](const ShardLayout &layout, int64_t device) {
    std::vector<int64_t> key = layout.offsetsOf(device);
    Shape extents = layout.extentsOf(device);
    key.insert(key.end(), extents.begin(), extents.end());
    return key;
  };
  // The devices holding each current box, ascending, with a cursor at the
  // first that may still be unused: each target takes the lowest unused
  // holder of its box (linear in the devices, not quadratic).
  std::map<std::vector<int64_t>, std::pair<std::vector<int64_t>, size_t>> holders;
  for (int64_t device = 0; device < numDevices; ++device)
    holders[box(from, device)].first.push_back(device);
  std::vector<bool> used(numDevices, false);
  SpmdStep step;
  step.kind = StepKind::CollectivePermute;
  for (int64_t target = 0; target < numDevices; ++target) {
    int64_t source = -1;
    if (sameBoxExcept(from, target, to, target, {})) {
      source = target;
    } else if (auto found = holders.find(box(to, target)); found != holders.end()) {
      auto &[devices, next] = found->second;
      while (next < devices.size() && used[devices[next]])
        ++next;
      if (next < devices.size())
        source = devices[next];
    }
    if (source < 0 || used[source])
      return std::nullopt;
    used[source] = true;
    step.pairs.push_back({source, target});
  }
  // The axes along which data moves, for the report.
  for (size_t a = 0; a < mesh.axes.size(); ++a) {
    bool moves = std::any_of(step.pairs.begin(), step.pairs.end(), [&](auto pair) {
      return mesh.coordinates(pair.first)[a] != mesh.coordinates(pair.second)[a];
    });
    if (moves)
      step.axes.push_back(AxisRef::full(mesh.axes[a].name));
  }
  return PlannedStep{std::move(step), to};
}

/// Both layouts' axes cut into their common sub-axes: per mesh axis, the
/// points where a part either layout uses starts or ends (in the axis'
/// multiplicative coordinate space) split every part spanning them. "x" next
/// to "x":(1)2 becomes "x":(1)2, "x":(2)2, so the planner sees a common
/// prefix (the move is a slice or a gather of the minor half, not of all of
/// x). Axes whose cut points do not nest (parts that cannot coexist) stay
/// whole.
class CommonParts {
public:
  CommonParts(const Mesh &mesh, const ShardLayout &a, const ShardLayout &b) : mesh_(mesh) {
    for (const ShardLayout *layout : {&a, &b}) {
      for (const auto &dim : layout->sharding.dims)
        addCuts(dim.axes);
      addCuts(layout->partialAxes);
    }
    std::erase_if(cuts_, [](const auto &entry) {
      const std::vector<int64_t> &cuts = entry.second;
      for (size_t i = 1; i < cuts.size(); ++i)
        if (cuts[i] % cuts[i - 1] != 0)
          return true;
      return false;
    });
  }

  ShardLayout refine(const ShardLayout &layout) const {
    DimAxes dims = dimAxesOf(layout);
    for (auto &axes : dims)
      axes = refine(axes);
    return makeShardLayout(mesh_, layout.globalType, dims, refine(layout.partialAxes),
                           layout.partialReducer);
  }

private:
  void addCuts(const std::vector<AxisRef> &axes) {
    for (const AxisRef &axis : axes) {
      std::vector<int64_t> &cuts = cuts_[axis.name];
      for (int64_t cut : {axis.pre(), axis.pre() * axis.size(mesh_)})
        if (std::find(cuts.begin(), cuts.end(), cut) == cuts.end())
          cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), cut), cut);
    }
  }

  std::vector<AxisRef> refine(const std::vector<AxisRef> &axes) const {
    std::vector<AxisRef> parts;
    for (const AxisRef &axis : axes) {
      auto found = cuts_.find(axis.name);
      if (found == cuts_.end()) {
        parts.push_back(axis);
        continue;
      }
      const std::vector<int64_t> &cuts = found->second;
      const int64_t end = axis.pre() * axis.size(mesh_);
      for (size_t i = 0; i + 1 < cuts.size(); ++i)
        if (cuts[i] >= axis.pre() && cuts[i + 1] <= end)
          parts.push_back(axisPart(mesh_, axis.name, cuts[i], cuts[i + 1] / cuts[i]));
    }
    return parts;
  }

  const Mesh &mesh_;
  std::map<std::string, std::vector<int64_t>> cuts_; // ascending, per axis name
};

/// A plan made over common parts, spelled canonically again: consecutive
/// parts of one axis merged in each step's axes and layouts (same pieces).
void mergeParts(const Mesh &mesh, ReshardPlan &plan) {
  for (PlannedStep &planned : plan.steps) {
    planned.step.axes = mergedAxes(mesh, planned.step.axes);
    if (planned.result.isDistributed())
      continue;
    DimAxes dims = dimAxesOf(planned.result);
    for (auto &axes : dims)
      axes = mergedAxes(mesh, axes);
    planned.result = makeShardLayout(mesh, planned.result.globalType, dims,
                                     mergedAxes(mesh, planned.result.partialAxes),
                                     planned.result.partialReducer);
  }
}

/// The cheapest exact plan (see the header) over the axes as `from` and `to`
/// spell them: a sub-axis and its whole axis share no prefix here.
ReshardPlan planInParts(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to) {
  if (sameLayout(from, to))
    return {};
  PlanBuilder builder(mesh, from);
  builder.reducePartialAxes(to);
  ShardLayout reduced = builder.current();
  ShardLayout goal = to.isDistributed()
                         ? to
                         : makeShardLayout(mesh, to.globalType, dimAxesOf(to), reduced.partialAxes,
                                           reduced.partialReducer);
  ReshardPlan prefix = builder.take();
  if (sameLayout(reduced, goal))
    return prefix;
  if (reduced.isDistributed() || goal.isDistributed()) {
    // To, from or between distributions: one transfer of exactly the
    // elements each destination lacks (the value is complete by now).
    SpmdStep step;
    step.kind = StepKind::Redistribute;
    for (const MeshAxis &axis : mesh.axes) // its exchange spans the mesh
      step.axes.push_back(AxisRef::full(axis.name));
    prefix.bytesReceived += redistributionTraffic(mesh, reduced, goal).totalReceived;
    prefix.steps.push_back(PlannedStep{std::move(step), goal});
    return prefix;
  }

  PlanBuilder decomposed(mesh, reduced);
  decomposed.moveDims(dimAxesOf(goal));
  ReshardPlan best = decomposed.take();
  if (auto permute = permutationStep(mesh, reduced, goal)) {
    ReshardPlan alternative;
    for (const auto &traffic : stepTraffic(mesh, permute->step, reduced, goal))
      alternative.bytesReceived += traffic.received;
    alternative.steps.push_back(std::move(*permute));
    if (alternative.bytesReceived < best.bytesReceived)
      best = std::move(alternative);
  }
  prefix.steps.insert(prefix.steps.end(), best.steps.begin(), best.steps.end());
  prefix.bytesReceived += best.bytesReceived;
  return prefix;
}

/// `name` without one trailing ".<digits>" (the suffix a copy gets), so each
/// copy in a chain of reshards is named after the value, not after the copy
/// before it (names grew with the chain: output quadratic in it).
std::string copyBase(const std::string &name) {
  const size_t dot = name.find_last_of('.');
  if (dot == std::string::npos || dot + 1 == name.size())
    return name;
  for (size_t i = dot + 1; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9')
      return name;
  return name.substr(0, dot);
}

} // namespace

ReshardPlan planReshard(const Mesh &mesh, const ShardLayout &from, const ShardLayout &to) {
  if (sameLayout(from, to)) // the common case: nothing moves
    return {};
  if (from.isDistributed() || to.isDistributed())
    return planInParts(mesh, from, to);
  CommonParts parts(mesh, from, to);
  ReshardPlan plan = planInParts(mesh, parts.refine(from), parts.refine(to));
  mergeParts(mesh, plan);
  return plan;
}

SpmdValueId appendReshard(SpmdProgram &program, SpmdValueId value, const ShardLayout &to,
                          const Op *op, const std::string &pointer) {
  ReshardPlan plan = planReshard(program.mesh, program.layout(value), to);
  for (auto &planned : plan.steps) {
    SpmdValue copy;
    copy.name = copyBase(program.values[value].name) + "." + std::to_string(program.values.size());
    copy.layout = std::move(planned.result);
    copy.source = program.values[value].source;
    auto id = static_cast<SpmdValueId>(program.values.size());
    program.values.push_back(std::move(copy));
    SpmdStep step = std::move(planned.step);
    step.op = op;
    step.pointer = pointer;
    step.inputs = {value};
    step.outputs = {id};
    program.steps.push_back(std::move(step));
    value = id;
  }
  return value;
}

} // namespace shardgen
