#include "compiler/codegen/DotOperands.h"

namespace shardgen::codegen {

bool isIdentityOrder(const std::vector<int64_t> &order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

DotOperandOrder dotOperandOrder(const DotGeneralAttrs &attrs, int64_t lhsRank, int64_t rhsRank) {
  const std::vector<int64_t> lhsFree =
      dotGeneralFreeDims(lhsRank, attrs.lhsBatchingDimensions, attrs.lhsContractingDimensions);
  const std::vector<int64_t> rhsFree =
      dotGeneralFreeDims(rhsRank, attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions);
  auto concat = [](std::vector<int64_t> first, const std::vector<int64_t> &second,
                   const std::vector<int64_t> &third) {
    first.insert(first.end(), second.begin(), second.end());
    first.insert(first.end(), third.begin(), third.end());
    return first;
  };
  DotOperandOrder order;
  order.lhs = concat(attrs.lhsBatchingDimensions, lhsFree, attrs.lhsContractingDimensions);
  order.rhs = concat(attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions, rhsFree);
  const std::vector<int64_t> transposed =
      concat(attrs.rhsBatchingDimensions, rhsFree, attrs.rhsContractingDimensions);
  auto keepsInnermost = [&](const std::vector<int64_t> &dims) {
    return !dims.empty() && dims.back() == rhsRank - 1;
  };
  order.transposedRhs =
      !isIdentityOrder(order.rhs) &&
      (isIdentityOrder(transposed) || (keepsInnermost(transposed) && !keepsInnermost(order.rhs)));
  if (order.transposedRhs)
    order.rhs = transposed;
  return order;
}

int64_t dotRowSplit(const DotGeneralAttrs &attrs, const DotOperandOrder &order, size_t operand) {
  if (operand == 0)
    return static_cast<int64_t>(order.lhs.size() - attrs.lhsContractingDimensions.size());
  const int64_t rank = static_cast<int64_t>(order.rhs.size());
  if (order.transposedRhs)
    return rank - static_cast<int64_t>(attrs.rhsContractingDimensions.size());
  return static_cast<int64_t>(attrs.rhsBatchingDimensions.size() +
                              attrs.rhsContractingDimensions.size());
}

} // namespace shardgen::codegen
