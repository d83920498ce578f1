#include "compiler/partition/FactorAxes.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace shardgen {
namespace {

/// Every (tensor dim factors, dim size) of the rule, operands then results.
std::vector<std::pair<const std::vector<int64_t> *, int64_t>>
allDims(const FactorAxesRequest &request) {
  std::vector<std::pair<const std::vector<int64_t> *, int64_t>> dims;
  auto add = [&](const std::vector<OpShardingRule::TensorFactors> &tensors,
                 const std::vector<Shape> &shapes) {
    for (size_t t = 0; t < tensors.size() && t < shapes.size(); ++t)
      for (size_t d = 0; d < tensors[t].size() && d < shapes[t].size(); ++d)
        dims.push_back({&tensors[t][d], shapes[t][d]});
  };
  add(request.rule->operands, request.operandShapes);
  add(request.rule->results, request.resultShapes);
  return dims;
}

/// Factors that cannot be sharded safely: not pass-through/reduction, or
/// whose dims' sizes do not match the factor sizes (e.g. a sliced dim).
std::vector<bool> unshardableFactors(const FactorAxesRequest &request) {
  const OpShardingRule &rule = *request.rule;
  std::vector<bool> blocked(rule.numFactors(), false);
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    blocked[f] = rule.factorKinds[f] == FactorKind::NeedReplication ||
                 rule.factorKinds[f] == FactorKind::Permutation ||
                 (rule.factorKinds[f] == FactorKind::Reduction && !request.allowShardedReduction);
  for (auto [factors, size] : allDims(request)) {
    int64_t product = 1;
    for (int64_t f : *factors)
      product *= rule.factorSizes[f];
    if (product != size)
      for (int64_t f : *factors)
        blocked[f] = true;
  }
  return blocked;
}

/// Projects a dim's axes onto its factors, major first, as Shardy does
/// (ShardingProjection): a factor takes axes while the gcd of its remaining
/// size and the next axis' size exceeds 1, splitting an axis into sub-axes
/// where only part of it fits (a factor of 2 under "x" of size 4 takes
/// "x":(1)2 and leaves "x":(2)2 to the next factor). Once the sizes are
/// coprime, the axes left fit no factor exactly and are left out. A dim of
/// one factor takes all its axes (uneven shards are exact there).
std::vector<std::vector<AxisRef>> splitDimAxes(const Mesh &mesh, const OpShardingRule &rule,
                                               const std::vector<int64_t> &factors,
                                               const std::vector<AxisRef> &axes) {
  std::vector<std::vector<AxisRef>> split(factors.size());
  if (factors.size() == 1) {
    split[0] = axes;
    return split;
  }
  size_t next = 0;
  std::optional<AxisRef> rest; // the part of axes[next] not yet taken
  if (!axes.empty())
    rest = axes[0];
  for (size_t i = 0; i < factors.size() && rest; ++i) {
    int64_t remaining = rule.factorSizes[factors[i]];
    while (rest) {
      int64_t size = rest->size(mesh), common = std::gcd(remaining, size);
      if (common == 1 && size != 1)
        break;
      if (common < size) { // only part of the axis fits: split it
        split[i].push_back(axisPart(mesh, rest->name, rest->pre(), common));
        rest = axisPart(mesh, rest->name, rest->pre() * common, size / common);
      } else {
        split[i].push_back(*rest);
        rest = ++next < axes.size() ? std::optional<AxisRef>(axes[next]) : std::nullopt;
      }
      remaining /= common;
    }
    if (remaining > 1 && rest)
      break; // coprime: the rest would need a strided view
  }
  return split;
}

bool overlapsAny(const Mesh &mesh, const std::vector<AxisRef> &axes, const FactorAxes &assigned) {
  for (const auto &axis : axes)
    for (const auto &factor : assigned)
      for (const auto &other : factor)
        if (axis.overlaps(other, mesh))
          return true;
  return false;
}

/// Clears factor axes a dim could not carry exactly (see the header).
void dropInexpressibleAxes(const Mesh &mesh, const FactorAxesRequest &request, FactorAxes &axes) {
  const OpShardingRule &rule = *request.rule;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [factors, size] : allDims(request)) {
      (void)size;
      bool majorFull = true;
      for (int64_t f : *factors) {
        int64_t shards = axesSize(mesh, axes[f]);
        bool exact = factors->size() == 1 || rule.factorSizes[f] % shards == 0;
        if (!axes[f].empty() && (!majorFull || !exact)) {
          axes[f].clear();
          changed = true;
          shards = 1;
        }
        majorFull = majorFull && shards == rule.factorSizes[f];
      }
    }
  }
}

} // namespace

FactorAxes assignFactorAxes(const Mesh &mesh, const FactorAxesRequest &request) {
  const OpShardingRule &rule = *request.rule;
  std::vector<bool> blocked = unshardableFactors(request);
  FactorAxes axes(rule.numFactors());
  std::vector<bool> decided(rule.numFactors(), false);

  auto assignResultFactors = [&] {
    for (size_t r = 0; r < rule.results.size() && r < request.resultAxes.size(); ++r)
      for (size_t d = 0; d < rule.results[r].size(); ++d) {
        const auto &factors = rule.results[r][d];
        auto split = splitDimAxes(mesh, rule, factors, request.resultAxes[r][d]);
        for (size_t i = 0; i < factors.size(); ++i) {
          int64_t f = factors[i];
          if (decided[f])
            continue;
          decided[f] = true;
          if (!blocked[f] && !overlapsAny(mesh, split[i], axes))
            axes[f] = split[i];
        }
      }
  };
  auto assignReductionFactors = [&] {
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      if (decided[f] || blocked[f] || rule.factorKinds[f] != FactorKind::Reduction)
        continue;
      std::optional<std::vector<AxisRef>> agreed;
      bool agree = true;
      for (size_t t = 0; t < rule.operands.size() && agree; ++t)
        for (size_t d = 0; d < rule.operands[t].size(); ++d) {
          const auto &factors = rule.operands[t][d];
          auto at = std::find(factors.begin(), factors.end(), f);
          if (at == factors.end())
            continue;
          auto split = splitDimAxes(mesh, rule, factors, request.operandAxes[t][d]);
          const auto &mine = split[at - factors.begin()];
          if (agreed && *agreed != mine)
            agree = false;
          agreed = mine;
        }
      if (agree && agreed && !overlapsAny(mesh, *agreed, axes))
        axes[f] = *agreed;
    }
  };
  if (request.reductionFirst) {
    assignReductionFactors();
    assignResultFactors();
  } else {
    assignResultFactors();
    assignReductionFactors();
  }
  dropInexpressibleAxes(mesh, request, axes);
  return axes;
}

DimAxes tensorAxes(const Mesh &mesh, const OpShardingRule::TensorFactors &factors,
                   const FactorAxes &axes) {
  DimAxes dims(factors.size());
  for (size_t d = 0; d < factors.size(); ++d) {
    for (int64_t f : factors[d])
      dims[d].insert(dims[d].end(), axes[f].begin(), axes[f].end());
    dims[d] = mergedAxes(mesh, dims[d]);
  }
  return dims;
}

} // namespace shardgen
