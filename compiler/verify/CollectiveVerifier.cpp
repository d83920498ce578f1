#include <set>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// The devices in one collective group: the product of its axes' sizes.
/// Every axis must be a manual axis of an enclosing manual_computation.
int64_t groupSize(const InferenceContext &context, const std::vector<std::string> &axes) {
  if (axes.empty())
    context.failAttr("axes", "needs at least one axis in `axes`");
  std::set<std::string> seen;
  int64_t size = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    const std::string pointer = joinPointer(attrPointer(context.op, "axes"), i);
    if (!seen.insert(axes[i]).second)
      fail(pointer, context.opLabel() + " names axis \"" + axes[i] + "\" twice");
    const ManualAxisInfo *info = context.scope.find(axes[i]);
    if (!info)
      fail(pointer, context.opLabel() + " axis \"" + axes[i] +
                        "\" is not a manual axis of an enclosing manual_computation");
    size *= info->size; // bounded by the mesh's device count
  }
  return size;
}

void checkDimension(const InferenceContext &context, const std::string &key, int64_t dim,
                    const TensorType &type) {
  if (dim < 0 || dim >= type.rank())
    context.failAttr(key, key + " " + std::to_string(dim) + " is out of range [0, " +
                              std::to_string(type.rank()) + ") for " + printType(type));
}

void checkDivisible(const InferenceContext &context, const std::string &key, int64_t dim,
                    const TensorType &type, int64_t group) {
  if (type.shape[dim] % group != 0)
    context.failAttr(key, "dimension " + std::to_string(dim) + " of size " +
                              std::to_string(type.shape[dim]) +
                              " is not divisible by the group size " + std::to_string(group));
}

void checkReducer(const InferenceContext &context, Reducer reducer, const TensorType &type) {
  if ((reducer == Reducer::And || reducer == Reducer::Or) &&
      (isFloat(type.elementType) || isComplex(type.elementType)))
    context.failAttr("reducer", "reducer \"" + std::string(reducerName(reducer)) +
                                    "\" requires integer or i1 elements, got " + printType(type));
}

} // namespace

ResultTypes inferAllReduce(const InferenceContext &context) {
  const auto &attrs = context.attrs<AllReduceAttrs>();
  groupSize(context, attrs.axes);
  checkReducer(context, attrs.reducer, context.operand(0));
  return {context.operand(0)};
}

ResultTypes inferCollectivePermute(const InferenceContext &context) {
  groupSize(context, context.attrs<CollectivePermuteAttrs>().axes);
  return {context.operand(0)};
}

ResultTypes inferAllGather(const InferenceContext &context) {
  const auto &attrs = context.attrs<AllGatherAttrs>();
  TensorType result = context.operand(0);
  int64_t group = groupSize(context, attrs.axes);
  checkDimension(context, "dimension", attrs.dimension, result);
  auto gathered = checkedMul(result.shape[attrs.dimension], group);
  if (!gathered || *gathered > kMaxElementCount)
    context.failOp("result dimension is too large");
  result.shape[attrs.dimension] = *gathered;
  return {result};
}

ResultTypes inferReduceScatter(const InferenceContext &context) {
  const auto &attrs = context.attrs<ReduceScatterAttrs>();
  TensorType result = context.operand(0);
  int64_t group = groupSize(context, attrs.axes);
  checkReducer(context, attrs.reducer, result);
  checkDimension(context, "dimension", attrs.dimension, result);
  checkDivisible(context, "dimension", attrs.dimension, result, group);
  result.shape[attrs.dimension] /= group;
  return {result};
}

ResultTypes inferAllToAll(const InferenceContext &context) {
  const auto &attrs = context.attrs<AllToAllAttrs>();
  TensorType result = context.operand(0);
  int64_t group = groupSize(context, attrs.axes);
  checkDimension(context, "split_dimension", attrs.splitDimension, result);
  checkDimension(context, "concat_dimension", attrs.concatDimension, result);
  checkDivisible(context, "split_dimension", attrs.splitDimension, result, group);
  result.shape[attrs.splitDimension] /= group;
  auto concatenated = checkedMul(result.shape[attrs.concatDimension], group);
  if (!concatenated || *concatenated > kMaxElementCount)
    context.failOp("result dimension is too large");
  result.shape[attrs.concatDimension] = *concatenated;
  return {result};
}

ResultTypes inferAxisIndex(const InferenceContext &context) {
  const std::string &axis = context.attrs<AxisIndexAttrs>().axis;
  if (!context.scope.find(axis))
    context.failAttr("axis", "axis \"" + axis +
                                 "\" is not a manual axis of an enclosing manual_computation");
  return {TensorType{ElementType::I32, {}}};
}

void verifyCollectivePlacement(const InferenceContext &context) {
  if (!context.scope.insideBody)
    context.failOp("is only valid inside a manual_computation body");
}

} // namespace shardgen::verify
