#include "compiler/frontend/AttributeWriter.h"

#include "compiler/frontend/ConstantValue.h"

namespace shardgen {

namespace {

Json shardingsToJson(const std::vector<TensorSharding> &shardings) {
  Json array = Json::array();
  for (const auto &sharding : shardings)
    array.push_back(printSharding(sharding));
  return array;
}

struct FieldsOf {
  JsonFields operator()(const NoAttrs &) const { return {}; }
  JsonFields operator()(const ConstantAttrs &a) const {
    return {{"value", constantValueToJson(a)}};
  }
  JsonFields operator()(const IotaAttrs &a) const { return {{"iota_dimension", a.iotaDimension}}; }
  JsonFields operator()(const CompareAttrs &a) const {
    return {{"comparison_direction", comparisonDirectionName(a.direction)}};
  }
  JsonFields operator()(const DotGeneralAttrs &a) const {
    return {{"lhs_batching_dimensions", a.lhsBatchingDimensions},
            {"rhs_batching_dimensions", a.rhsBatchingDimensions},
            {"lhs_contracting_dimensions", a.lhsContractingDimensions},
            {"rhs_contracting_dimensions", a.rhsContractingDimensions}};
  }
  JsonFields operator()(const TransposeAttrs &a) const { return {{"permutation", a.permutation}}; }
  JsonFields operator()(const BroadcastInDimAttrs &a) const {
    return {{"broadcast_dimensions", a.broadcastDimensions}};
  }
  JsonFields operator()(const ReduceAttrs &a) const {
    if (!a.reducer) // its body is a region, written with the op's regions
      return {{"dimensions", a.dimensions}};
    return {{"dimensions", a.dimensions}, {"reducer", reducerName(*a.reducer)}};
  }
  JsonFields operator()(const ConcatenateAttrs &a) const { return {{"dimension", a.dimension}}; }
  JsonFields operator()(const SliceAttrs &a) const {
    JsonFields fields{{"start_indices", a.startIndices}, {"limit_indices", a.limitIndices}};
    if (a.stridesGiven)
      fields.emplace_back("strides", a.strides);
    return fields;
  }
  JsonFields operator()(const PadAttrs &a) const {
    return {{"edge_padding_low", a.edgePaddingLow},
            {"edge_padding_high", a.edgePaddingHigh},
            {"interior_padding", a.interiorPadding}};
  }
  JsonFields operator()(const ReverseAttrs &a) const { return {{"dimensions", a.dimensions}}; }
  JsonFields operator()(const PropagationBarrierAttrs &a) const {
    return {{"allowed_direction", barrierDirectionName(a.allowedDirection)}};
  }
  JsonFields operator()(const CustomCallAttrs &a) const {
    JsonFields fields{{"call_target_name", a.callTargetName}};
    // Canonical text, like shardings: a pass may have changed the rule.
    if (a.shardingRule)
      fields.emplace_back("sharding_rule", printOpShardingRule(*a.shardingRule));
    return fields;
  }
  JsonFields operator()(const ShardingGroupAttrs &a) const { return {{"group_id", a.groupId}}; }
  JsonFields operator()(const ManualComputationAttrs &a) const {
    return {{"in_shardings", shardingsToJson(a.inShardings)},
            {"out_shardings", shardingsToJson(a.outShardings)},
            {"manual_axes", a.manualAxes}};
  }
  JsonFields operator()(const AllReduceAttrs &a) const {
    return {{"axes", a.axes}, {"reducer", reducerName(a.reducer)}};
  }
  JsonFields operator()(const AllGatherAttrs &a) const {
    return {{"axes", a.axes}, {"dimension", a.dimension}};
  }
  JsonFields operator()(const ReduceScatterAttrs &a) const {
    return {{"axes", a.axes}, {"dimension", a.dimension}, {"reducer", reducerName(a.reducer)}};
  }
  JsonFields operator()(const AllToAllAttrs &a) const {
    return {{"axes", a.axes},
            {"split_dimension", a.splitDimension},
            {"concat_dimension", a.concatDimension}};
  }
  JsonFields operator()(const CollectivePermuteAttrs &a) const {
    return {{"axes", a.axes}, {"shift", a.shift}};
  }
  JsonFields operator()(const AxisIndexAttrs &a) const { return {{"axis", a.axis}}; }
};

} // namespace

JsonFields attributesToJson(const Attributes &attrs) { return std::visit(FieldsOf{}, attrs); }

} // namespace shardgen
