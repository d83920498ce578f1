#include "compiler/propagate/FactorProjection.h"

#include <numeric>

namespace shardgen::propagation {

namespace {

/// Appends the rest of the dim's axes, starting with what is left of the
/// current one.
void addRemainingAxes(AxisList &target, std::optional<SubAxis> current, const AxisList &axes,
                      size_t next) {
  if (current)
    appendOrMerge(target, *current);
  for (size_t i = next; i < axes.size(); ++i)
    appendOrMerge(target, axes[i]);
}

void projectDim(const DimState *dim, const std::vector<int64_t> &factors,
                const std::vector<int64_t> &factorSizes, TensorProjection &projection) {
  static const AxisList kNoAxes;
  const AxisList &axes = dim ? dim->axes : kNoAxes;
  bool closed = dim && dim->closed;
  size_t next = 0;
  std::optional<SubAxis> current;
  auto advance = [&] { current = next < axes.size() ? std::optional(axes[next++]) : std::nullopt; };
  advance();
  bool overflowed = false;
  for (size_t k = 0; k < factors.size(); ++k) {
    FactorSharding &factor = projection.factors[factors[k]];
    factor.present = true;
    factor.minorMost = k + 1 == factors.size();
    if (overflowed) {
      factor.closed = true; // nothing may shard a factor behind overflow axes
      continue;
    }
    factor.closed = closed;
    if (factor.minorMost) {
      addRemainingAxes(factor.axes, current, axes, next);
      break;
    }
    int64_t remaining = factorSizes[factors[k]];
    // Axes of size 1 go along with the factor they follow (Shardy), even
    // once it is full.
    while (current) {
      int64_t common = current->size == 1 ? 1 : std::gcd(remaining, current->size);
      if (common == 1 && current->size != 1)
        break;
      if (current->size > common) {
        factor.axes.push_back(SubAxis{current->axis, current->pre, common});
        current->pre *= common;
        current->size /= common;
      } else {
        factor.axes.push_back(*current);
        advance();
      }
      remaining /= common;
    }
    if (remaining > 1 && current) {
      overflowed = true;
      addRemainingAxes(factor.overflow, current, axes, next);
      current.reset();
    }
  }
}

} // namespace

TensorProjection projectTensor(const ShardingState &state,
                               const OpShardingRule::TensorFactors &mapping,
                               const std::vector<int64_t> &factorSizes) {
  TensorProjection projection;
  projectTensor(state, mapping, factorSizes, projection);
  return projection;
}

void projectTensor(const ShardingState &state, const OpShardingRule::TensorFactors &mapping,
                   const std::vector<int64_t> &factorSizes, TensorProjection &projection) {
  // Cleared, not freed: the engine reuses one projection for every visit.
  projection.factors.resize(factorSizes.size());
  for (FactorSharding &factor : projection.factors) {
    factor.present = factor.closed = factor.minorMost = false;
    factor.axes.clear();
    factor.overflow.clear();
  }
  projection.excluded.clear();
  for (size_t d = 0; d < mapping.size(); ++d) {
    const DimState *dim = state.hasSharding() && d < state.dims.size() ? &state.dims[d] : nullptr;
    projectDim(dim, mapping[d], factorSizes, projection);
    // A dim without factors (size 1) keeps its axes as they are; no factor
    // may take them a second time.
    if (dim && mapping[d].empty())
      projection.excluded.insert(projection.excluded.end(), dim->axes.begin(), dim->axes.end());
  }
  projection.excluded.insert(projection.excluded.end(), state.replicated.begin(),
                             state.replicated.end());
  projection.excluded.insert(projection.excluded.end(), state.unreduced.begin(),
                             state.unreduced.end());
  projection.excluded.insert(projection.excluded.end(), state.forbidden.begin(),
                             state.forbidden.end());
}

ShardingState unprojectTensor(const TensorProjection &projection,
                              const OpShardingRule::TensorFactors &mapping,
                              const std::vector<int64_t> &factorSizes, const ShardingState &old,
                              int32_t mesh) {
  ShardingState state = old;
  state.mesh = mesh;
  state.dims.resize(mapping.size());
  for (size_t d = 0; d < mapping.size(); ++d) {
    if (mapping[d].empty())
      continue; // a size-1 dim: nothing maps to it, keep what it had
    DimState dim;
    dim.priority = old.hasSharding() ? old.dims[d].priority : std::nullopt;
    for (int64_t f : mapping[d]) {
      const FactorSharding &factor = projection.factors[f];
      dim.closed |= factor.closed;
      for (size_t i = 0; i < factor.axes.size(); ++i) {
        if (i == 0)
          appendOrMerge(dim.axes, factor.axes[i]);
        else
          dim.axes.push_back(factor.axes[i]);
      }
      if (!factor.overflow.empty()) {
        for (const SubAxis &axis : factor.overflow)
          appendOrMerge(dim.axes, axis);
        break;
      }
      // A factor not fully sharded would need a strided view for the next one.
      if (product(factor.axes) < factorSizes[f])
        break;
    }
    state.dims[d] = std::move(dim);
  }
  return state;
}

} // namespace shardgen::propagation
