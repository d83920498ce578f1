#include "compiler/propagate/FactorPropagation.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

namespace shardgen::propagation {

namespace {

/// Merges `incoming` into the compatible axes so far. With `canExpand`, a
/// longer compatible list wins ("a" and "a","b" give "a","b"); a mismatch
/// stops at the common prefix and forbids any later expansion.
std::pair<AxisList, bool> mergeCompatible(const AxisList &current, const AxisList &incoming,
                                          bool canExpand) {
  AxisList result;
  size_t i = 0;
  for (; i < current.size() && i < incoming.size(); ++i) {
    const SubAxis &old = current[i], &added = incoming[i];
    if (old.axis != added.axis)
      return {result, false};
    if (old == added) {
      result.push_back(added);
      continue;
    }
    bool lastOfIncoming = i + 1 == incoming.size();
    bool lastOfCurrent = i + 1 == current.size();
    if (isPrefixOf(added, old)) {
      // Anything after a shorter sub-axis in `incoming` would conflict.
      if (!lastOfIncoming) {
        result.push_back(added);
        return {result, false};
      }
      result.push_back(old);
    } else if (isPrefixOf(old, added)) {
      if (!canExpand || !lastOfCurrent) {
        result.push_back(old);
        return {result, false};
      }
      result.push_back(added);
    } else {
      return {result, false};
    }
  }
  result.insert(result.end(), current.begin() + static_cast<std::ptrdiff_t>(i), current.end());
  if (canExpand)
    result.insert(result.end(), incoming.begin() + static_cast<std::ptrdiff_t>(i), incoming.end());
  return {result, canExpand};
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

std::vector<bool> propagateBasic(OpProjection &projection, const std::vector<int64_t> &factorSizes,
                                 const std::function<Direction(int64_t)> &direction) {
  std::vector<bool> updated(projection.tensors.size(), false);
  for (int64_t f = 0; f < static_cast<int64_t>(factorSizes.size()); ++f) {
    Direction dir = direction(f);
    if (dir == Direction::None)
      continue;
    AxisList axes = compatibleMajorAxes(projection, f, dir);
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
        updated[t] = true;
  }
  return updated;
}

std::vector<bool> propagateAggressive(OpProjection &projection,
                                      const std::vector<int64_t> &factorSizes,
                                      const std::function<Direction(int64_t)> &direction,
                                      bool elementwise) {
  auto numFactors = static_cast<int64_t>(factorSizes.size());
  std::vector<bool> updated(projection.tensors.size(), false);
  std::vector<AxisList> candidates(numFactors);
  bool any = false;
  for (int64_t f = 0; f < numFactors; ++f) {
    Direction dir = direction(f);
    if (dir != Direction::None)
      candidates[f] = compatibleMajorAxes(projection, f, dir);
    any |= !candidates[f].empty();
  }
  if (!any)
    return updated;

  // A factor's source is the largest tensor already holding (a prefix of)
  // its candidate axes; factors with larger sources claim axes first.
  struct Source {
    int64_t size = -1;
    int64_t tensor = -1;
  };
  std::vector<Source> sources(numFactors);
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
  std::vector<int64_t> order(numFactors);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return std::make_tuple(-sources[a].size, -shardedSize(a), sources[a].tensor, a) <
           std::make_tuple(-sources[b].size, -shardedSize(b), sources[b].tensor, b);
  });

  auto update = [&](size_t t) {
    TensorProjection &tensor = projection.tensors[t];
    for (int64_t f : order) {
      FactorSharding &sharding = tensor.factors[f];
      if (!sharding.present || candidates[f].empty())
        continue;
      AxisList axes = candidates[f];
      truncateAxes(axes, [&](SubAxis axis, int64_t prevShardedSize) {
        return withinFactor(axis, tensor, f, prevShardedSize, factorSizes[f]);
      });
      if (!isStrictPrefix(sharding.axes, axes))
        continue;
      // Checked against the tensor as already updated for preferred factors.
      truncateAxes(axes, [&](SubAxis axis, int64_t) {
        return withoutOtherFactors(axis, tensor, f, nullptr);
      });
      // Sideways into an elementwise op's operand only what its results took:
      // a result that stayed short (closed, or conflicting) caps the axes.
      if (elementwise && t < projection.numOperands)
        for (size_t r = projection.numOperands; r < projection.tensors.size(); ++r) {
          const FactorSharding &result = projection.tensors[r].factors[f];
          if (result.present && isStrictPrefix(result.axes, axes))
            axes = result.axes;
        }
      if (expand(sharding, axes))
        updated[t] = true;
    }
  };
  // Results first (Shardy): the operands of an elementwise op look at them.
  for (size_t t = projection.numOperands; t < projection.tensors.size(); ++t)
    update(t);
  for (size_t t = 0; t < projection.numOperands; ++t)
    update(t);
  return updated;
}

} // namespace

AxisList compatibleMajorAxes(const OpProjection &projection, int64_t factor, Direction direction) {
  AxisList result;
  bool canExpand = true;
  auto mergeRange = [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const FactorSharding &sharding = projection.tensors[t].factors[factor];
      if (sharding.present)
        std::tie(result, canExpand) = mergeCompatible(result, sharding.axes, canExpand);
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
  return result;
}

std::vector<bool> propagateFactors(OpProjection &projection,
                                   const std::vector<int64_t> &factorSizes,
                                   const std::function<Direction(int64_t)> &direction,
                                   ConflictResolution resolution, bool elementwise) {
  return resolution == ConflictResolution::Basic
             ? propagateBasic(projection, factorSizes, direction)
             : propagateAggressive(projection, factorSizes, direction, elementwise);
}

} // namespace shardgen::propagation
