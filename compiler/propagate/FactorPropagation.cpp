#include "compiler/propagate/FactorPropagation.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

namespace shardgen::propagation {

namespace {

/// Merges `incoming` into the compatible axes so far, in place. With
/// `canExpand`, a longer compatible list wins ("a" and "a","b" give "a","b");
/// a mismatch stops at the common prefix and forbids any later expansion
/// (returns false).
bool mergeCompatible(AxisList &current, const AxisList &incoming, bool canExpand) {
  size_t i = 0;
  for (; i < current.size() && i < incoming.size(); ++i) {
    SubAxis &old = current[i];
    const SubAxis &added = incoming[i];
    if (old.axis != added.axis) {
      current.resize(i);
      return false;
    }
    if (old == added)
      continue;
    bool lastOfIncoming = i + 1 == incoming.size();
    bool lastOfCurrent = i + 1 == current.size();
    if (isPrefixOf(added, old)) {
      // Anything after a shorter sub-axis in `incoming` would conflict.
      if (!lastOfIncoming) {
        old = added;
        current.resize(i + 1);
        return false;
      }
    } else if (isPrefixOf(old, added)) {
      if (!canExpand || !lastOfCurrent) {
        current.resize(i + 1);
        return false;
      }
      old = added;
    } else {
      current.resize(i);
      return false;
    }
  }
  if (canExpand)
    current.insert(current.end(), incoming.begin() + static_cast<std::ptrdiff_t>(i),
                   incoming.end());
  return canExpand;
}

/// Removes from `axis` what overlaps another factor's axes in the tensor
/// (existing ones, overflow ones, and optionally ones about to be added).
std::optional<SubAxis> withoutOtherFactors(SubAxis axis, const TensorProjection &tensor,
                                           int64_t factor, const std::vector<AxisList> *pending) {
  std::optional<SubAxis> result = axis;
  for (size_t other = 0; other < tensor.factors.size() && result; ++other) {
    if (static_cast<int64_t>(other) == factor)
      continue;
    const FactorSharding &sharding = tensor.factors[other];
    if (sharding.present) {
      result = prefixWithoutOverlap(*result, sharding.overflow);
      if (result)
        result = prefixWithoutOverlap(*result, sharding.axes);
    }
    if (result && pending)
      result = prefixWithoutOverlap(*result, (*pending)[other]);
  }
  return result;
}

/// Removes from `axis` what this tensor's own factor sharding cannot take:
/// excluded axes, and any growth of a closed factor, one with overflow axes,
/// or a non-minor-most factor that would no longer divide evenly (there the
/// sub-axis that still divides it is kept).
std::optional<SubAxis> withinFactor(SubAxis axis, const TensorProjection &tensor, int64_t factor,
                                    int64_t prevShardedSize, int64_t factorSize) {
  std::optional<SubAxis> result = prefixWithoutOverlap(axis, tensor.excluded);
  if (!result)
    return std::nullopt;
  const FactorSharding &sharding = tensor.factors[factor];
  for (const SubAxis &existing : sharding.axes)
    if (contains(existing, *result))
      return result;
  if (!sharding.closed && sharding.overflow.empty()) {
    if (sharding.minorMost)
      return result;
    // A non-minor-most factor takes what still divides it: the axis, or the
    // major sub-axis of it that does (Shardy's gcd split).
    if (factorSize % prevShardedSize == 0) {
      int64_t gcd = std::gcd(factorSize / prevShardedSize, result->size);
      if (gcd == result->size)
        return result;
      if (gcd != 1)
        return SubAxis{result->axis, result->pre, gcd};
    }
  }
  if (!sharding.axes.empty() && isPrefixOf(sharding.axes.back(), *result))
    return sharding.axes.back();
  return std::nullopt;
}

/// Cuts `axes` at the first axis `fix` changes: a shortened axis is kept as
/// the last one, a removed axis drops it and all minor ones.
template <typename Fix> void truncateAxes(AxisList &axes, Fix fix) {
  int64_t prevShardedSize = 1; // of the axes before the one being fixed
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<SubAxis> fixed = fix(axes[i], prevShardedSize);
    if (!fixed) {
      axes.resize(i);
      return;
    }
    if (!(*fixed == axes[i])) {
      axes[i] = *fixed;
      axes.resize(i + 1);
      return;
    }
    prevShardedSize *= axes[i].size;
  }
}

bool expand(FactorSharding &sharding, const AxisList &axes) {
  if (!sharding.present || !isStrictPrefix(sharding.axes, axes))
    return false;
  sharding.axes = axes;
  return true;
}

void propagateBasic(OpProjection &projection, const std::vector<int64_t> &factorSizes,
                    const Direction *directions, FactorStepScratch &scratch) {
  AxisList &axes = scratch.axes;
  for (int64_t f = 0; f < static_cast<int64_t>(factorSizes.size()); ++f) {
    if (directions[f] == Direction::None)
      continue;
    compatibleMajorAxes(projection, f, directions[f], axes);
    truncateAxes(axes, [&](SubAxis axis, int64_t prevShardedSize) -> std::optional<SubAxis> {
      std::optional<SubAxis> result = axis;
      for (const TensorProjection &tensor : projection.tensors) {
        result = withoutOtherFactors(*result, tensor, f, nullptr);
        if (result && tensor.factors[f].present)
          result = withinFactor(*result, tensor, f, prevShardedSize, factorSizes[f]);
        if (!result)
          return std::nullopt;
      }
      return result;
    });
    for (size_t t = 0; t < projection.tensors.size(); ++t)
      if (expand(projection.tensors[t].factors[f], axes))
        scratch.updated[t] = 1;
  }
}

/// Aggressive resolution: a factor's source is the largest tensor already
/// holding (a prefix of) its candidate axes; factors with larger sources
/// claim axes first. Fills `scratch.order`.
void orderFactors(const OpProjection &projection, const std::vector<int64_t> &factorSizes,
                  bool elementwise, FactorStepScratch &scratch) {
  auto numFactors = static_cast<int64_t>(factorSizes.size());
  const std::vector<AxisList> &candidates = scratch.candidates;
  std::vector<FactorStepScratch::Source> &sources = scratch.sources;
  sources.assign(numFactors, FactorStepScratch::Source{});
  for (size_t t = 0; t < projection.tensors.size(); ++t) {
    const TensorProjection &tensor = projection.tensors[t];
    int64_t tensorSize = 1;
    for (int64_t f = 0; f < numFactors; ++f)
      if (tensor.factors[f].present)
        tensorSize *= factorSizes[f];
    for (int64_t f = 0; f < numFactors; ++f) {
      bool isSource =
          tensor.factors[f].present && !candidates[f].empty() &&
          axisListPrefixStatus(candidates[f], tensor.factors[f].axes) != PrefixStatus::NotAPrefix;
      if (isSource && tensorSize > sources[f].size)
        sources[f] = {tensorSize, static_cast<int64_t>(t)};
    }
  }
  // For elementwise ops the more sharded factor comes before a smaller one
  // from an equally large source.
  auto shardedSize = [&](int64_t f) { return elementwise ? product(candidates[f]) : 0; };
  std::vector<int64_t> &order = scratch.order;
  order.resize(numFactors);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return std::make_tuple(-sources[a].size, -shardedSize(a), sources[a].tensor, a) <
           std::make_tuple(-sources[b].size, -shardedSize(b), sources[b].tensor, b);
  });
}

/// Aggressive resolution for tensor `t`: each factor in order takes what of
/// its candidate axes the tensor can hold.
void updateAggressive(OpProjection &projection, size_t t, const std::vector<int64_t> &factorSizes,
                      bool elementwise, FactorStepScratch &scratch) {
  TensorProjection &tensor = projection.tensors[t];
  AxisList &axes = scratch.axes;
  for (int64_t f : scratch.order) {
    FactorSharding &sharding = tensor.factors[f];
    if (!sharding.present || scratch.candidates[f].empty())
      continue;
    axes.assign(scratch.candidates[f].begin(), scratch.candidates[f].end());
    truncateAxes(axes, [&](SubAxis axis, int64_t prevShardedSize) {
      return withinFactor(axis, tensor, f, prevShardedSize, factorSizes[f]);
    });
    if (!isStrictPrefix(sharding.axes, axes))
      continue;
    // Checked against the tensor as already updated for preferred factors.
    truncateAxes(
        axes, [&](SubAxis axis, int64_t) { return withoutOtherFactors(axis, tensor, f, nullptr); });
    // Sideways into an elementwise op's operand only what its results took:
    // a result that stayed short (closed, or conflicting) caps the axes.
    if (elementwise && t < projection.numOperands)
      for (size_t r = projection.numOperands; r < projection.tensors.size(); ++r) {
        const FactorSharding &result = projection.tensors[r].factors[f];
        if (result.present && isStrictPrefix(result.axes, axes))
          axes.assign(result.axes.begin(), result.axes.end());
      }
    if (expand(sharding, axes))
      scratch.updated[t] = 1;
  }
}

void propagateAggressive(OpProjection &projection, const std::vector<int64_t> &factorSizes,
                         const Direction *directions, bool elementwise,
                         FactorStepScratch &scratch) {
  auto numFactors = static_cast<int64_t>(factorSizes.size());
  std::vector<AxisList> &candidates = scratch.candidates;
  if (static_cast<int64_t>(candidates.size()) < numFactors)
    candidates.resize(numFactors);
  bool any = false;
  for (int64_t f = 0; f < numFactors; ++f) {
    candidates[f].clear();
    if (directions[f] != Direction::None)
      compatibleMajorAxes(projection, f, directions[f], candidates[f]);
    any |= !candidates[f].empty();
  }
  if (!any)
    return;
  orderFactors(projection, factorSizes, elementwise, scratch);
  // Results first (Shardy): the operands of an elementwise op look at them.
  for (size_t t = projection.numOperands; t < projection.tensors.size(); ++t)
    updateAggressive(projection, t, factorSizes, elementwise, scratch);
  for (size_t t = 0; t < projection.numOperands; ++t)
    updateAggressive(projection, t, factorSizes, elementwise, scratch);
}

} // namespace

void compatibleMajorAxes(const OpProjection &projection, int64_t factor, Direction direction,
                         AxisList &result) {
  result.clear();
  bool canExpand = true;
  auto mergeRange = [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const FactorSharding &sharding = projection.tensors[t].factors[factor];
      if (sharding.present)
        canExpand = mergeCompatible(result, sharding.axes, canExpand);
    }
  };
  size_t numTensors = projection.tensors.size(), numOperands = projection.numOperands;
  // In one direction only the source side may grow the axes; the other side
  // still limits them where it conflicts.
  if (direction == Direction::Backward) {
    mergeRange(numOperands, numTensors);
    canExpand = false;
    mergeRange(0, numOperands);
  } else {
    mergeRange(0, numOperands);
    if (direction == Direction::Forward)
      canExpand = false;
    mergeRange(numOperands, numTensors);
  }
}

AxisList compatibleMajorAxes(const OpProjection &projection, int64_t factor, Direction direction) {
  AxisList result;
  compatibleMajorAxes(projection, factor, direction, result);
  return result;
}

bool propagateFactors(OpProjection &projection, const std::vector<int64_t> &factorSizes,
                      const Direction *directions, ConflictResolution resolution, bool elementwise,
                      FactorStepScratch &scratch) {
  scratch.updated.assign(projection.tensors.size(), 0);
  if (resolution == ConflictResolution::Basic)
    propagateBasic(projection, factorSizes, directions, scratch);
  else
    propagateAggressive(projection, factorSizes, directions, elementwise, scratch);
  return std::find(scratch.updated.begin(), scratch.updated.end(), 1) != scratch.updated.end();
}

std::vector<bool> propagateFactors(OpProjection &projection,
                                   const std::vector<int64_t> &factorSizes,
                                   const std::function<Direction(int64_t)> &direction,
                                   ConflictResolution resolution, bool elementwise) {
  std::vector<Direction> directions(factorSizes.size());
  for (size_t f = 0; f < directions.size(); ++f)
    directions[f] = direction(static_cast<int64_t>(f));
  FactorStepScratch scratch;
  propagateFactors(projection, factorSizes, directions.data(), resolution, elementwise, scratch);
  return {scratch.updated.begin(), scratch.updated.end()};
}

} // namespace shardgen::propagation
