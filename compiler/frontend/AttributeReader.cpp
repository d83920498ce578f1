#include "compiler/frontend/AttributeReader.h"

#include "compiler/frontend/TextFields.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen {

namespace {
int64_t integerField(const JsonObject &op, std::string_view key) {
  return readInteger(op.require(key), op.at(key));
}
std::vector<int64_t> integersField(const JsonObject &op, std::string_view key) {
  return readIntegerArray(op.require(key), op.at(key));
}
/// An integer list the spec lets default to [].
std::vector<int64_t> optionalIntegersField(const JsonObject &op, std::string_view key) {
  const Json *value = op.find(key);
  return value ? readIntegerArray(*value, op.at(key)) : std::vector<int64_t>{};
}
std::vector<std::string> stringsField(const JsonObject &op, std::string_view key) {
  return readStringArray(op.require(key), op.at(key));
}
Reducer reducerField(const JsonObject &op) {
  return readReducer(op.require("reducer"), op.at("reducer"));
}
std::vector<TensorSharding> shardingsField(const JsonObject &op, std::string_view key) {
  const Json &array = readArray(op.require(key), op.at(key));
  std::vector<TensorSharding> shardings;
  for (size_t i = 0; i < array.size(); ++i)
    shardings.push_back(readSharding(array[i], PointerRef(op.at(key), i)));
  return shardings;
}

SliceAttrs readSlice(const JsonObject &op) {
  SliceAttrs attrs;
  attrs.startIndices = integersField(op, "start_indices");
  attrs.limitIndices = integersField(op, "limit_indices");
  if (const Json *strides = op.find("strides")) {
    attrs.strides = readIntegerArray(*strides, op.at("strides"));
    attrs.stridesGiven = true;
  } else {
    attrs.strides.assign(attrs.startIndices.size(), 1);
  }
  return attrs;
}

CustomCallAttrs readCustomCall(const JsonObject &op) {
  CustomCallAttrs attrs;
  attrs.callTargetName = readString(op.require("call_target_name"), op.at("call_target_name"));
  if (const Json *rule = op.find("sharding_rule")) {
    attrs.shardingRule = readShardingRule(*rule, op.at("sharding_rule"));
    attrs.shardingRuleText = rule->get<std::string>();
  }
  return attrs;
}

ManualComputationAttrs readManualComputation(const JsonObject &op) {
  ManualComputationAttrs attrs;
  attrs.inShardings = shardingsField(op, "in_shardings");
  attrs.outShardings = shardingsField(op, "out_shardings");
  // Shardy allows a manual computation with no manual axes.
  if (const Json *axes = op.find("manual_axes"))
    attrs.manualAxes = readStringArray(*axes, op.at("manual_axes"));
  return attrs;
}
} // namespace

Attributes readAttributes(OpKind kind, const JsonObject &op) {
  switch (kind) {
  case OpKind::Iota:
    // StableHLO always prints it; for a rank-1 iota 0 is the only choice.
    return IotaAttrs{op.has("iota_dimension") ? integerField(op, "iota_dimension") : 0};
  case OpKind::Compare:
    return CompareAttrs{
        readComparisonDirection(op.require("comparison_direction"), op.at("comparison_direction"))};
  case OpKind::DotGeneral:
    return DotGeneralAttrs{optionalIntegersField(op, "lhs_batching_dimensions"),
                           optionalIntegersField(op, "rhs_batching_dimensions"),
                           optionalIntegersField(op, "lhs_contracting_dimensions"),
                           optionalIntegersField(op, "rhs_contracting_dimensions")};
  case OpKind::Transpose:
    return TransposeAttrs{integersField(op, "permutation")};
  case OpKind::BroadcastInDim:
    return BroadcastInDimAttrs{integersField(op, "broadcast_dimensions")};
  case OpKind::Reduce: {
    ReduceAttrs attrs;
    attrs.dimensions = integersField(op, "dimensions");
    // Either `reducer` or a `body` region (read with the op's regions).
    if (op.has("reducer") || !op.has("body"))
      attrs.reducer = reducerField(op);
    return attrs;
  }
  case OpKind::Concatenate:
    return ConcatenateAttrs{integerField(op, "dimension")};
  case OpKind::Slice:
    return readSlice(op);
  case OpKind::Pad:
    return PadAttrs{integersField(op, "edge_padding_low"), integersField(op, "edge_padding_high"),
                    integersField(op, "interior_padding")};
  case OpKind::Reverse:
    return ReverseAttrs{integersField(op, "dimensions")};
  case OpKind::PropagationBarrier:
    return PropagationBarrierAttrs{
        readBarrierDirection(op.require("allowed_direction"), op.at("allowed_direction"))};
  case OpKind::CustomCall:
    return readCustomCall(op);
  case OpKind::ShardingGroup:
    return ShardingGroupAttrs{integerField(op, "group_id")};
  case OpKind::ManualComputation:
    return readManualComputation(op);
  case OpKind::AllReduce: {
    AllReduceAttrs attrs;
    attrs.axes = stringsField(op, "axes");
    attrs.reducer = reducerField(op);
    return attrs;
  }
  case OpKind::AllGather: {
    AllGatherAttrs attrs;
    attrs.axes = stringsField(op, "axes");
    attrs.dimension = integerField(op, "dimension");
    return attrs;
  }
  case OpKind::ReduceScatter: {
    ReduceScatterAttrs attrs;
    attrs.axes = stringsField(op, "axes");
    attrs.dimension = integerField(op, "dimension");
    attrs.reducer = reducerField(op);
    return attrs;
  }
  case OpKind::AllToAll: {
    AllToAllAttrs attrs;
    attrs.axes = stringsField(op, "axes");
    attrs.splitDimension = integerField(op, "split_dimension");
    attrs.concatDimension = integerField(op, "concat_dimension");
    return attrs;
  }
  case OpKind::CollectivePermute: {
    CollectivePermuteAttrs attrs;
    attrs.axes = stringsField(op, "axes");
    attrs.shift = integerField(op, "shift");
    return attrs;
  }
  case OpKind::AxisIndex:
    return AxisIndexAttrs{readString(op.require("axis"), op.at("axis"))};
  default:
    return NoAttrs{};
  }
}

} // namespace shardgen
