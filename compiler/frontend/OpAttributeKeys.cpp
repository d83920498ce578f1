#include "compiler/frontend/OpAttributeKeys.h"

namespace shardgen {

std::span<const std::string_view> attributeKeys(OpKind kind) {
  static constexpr std::string_view constant[] = {"value"};
  static constexpr std::string_view iota[] = {"iota_dimension"};
  static constexpr std::string_view compare[] = {"comparison_direction"};
  static constexpr std::string_view dotGeneral[] = {
      "lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
      "rhs_contracting_dimensions"};
  static constexpr std::string_view transpose[] = {"permutation"};
  static constexpr std::string_view broadcastInDim[] = {"broadcast_dimensions"};
  static constexpr std::string_view reduce[] = {"dimensions", "reducer", "body"};
  static constexpr std::string_view concatenate[] = {"dimension"};
  static constexpr std::string_view slice[] = {"start_indices", "limit_indices", "strides"};
  static constexpr std::string_view pad[] = {"edge_padding_low", "edge_padding_high",
                                             "interior_padding"};
  static constexpr std::string_view reverse[] = {"dimensions"};
  static constexpr std::string_view barrier[] = {"allowed_direction"};
  static constexpr std::string_view customCall[] = {"call_target_name", "sharding_rule"};
  static constexpr std::string_view shardingGroup[] = {"group_id"};
  static constexpr std::string_view manual[] = {"in_shardings", "out_shardings", "manual_axes",
                                                "body"};
  static constexpr std::string_view allReduce[] = {"axes", "reducer"};
  static constexpr std::string_view allGather[] = {"axes", "dimension"};
  static constexpr std::string_view reduceScatter[] = {"axes", "dimension", "reducer"};
  static constexpr std::string_view allToAll[] = {"axes", "split_dimension", "concat_dimension"};
  static constexpr std::string_view permute[] = {"axes", "shift"};
  static constexpr std::string_view axisIndex[] = {"axis"};

  switch (kind) {
  case OpKind::Constant:
    return constant;
  case OpKind::Iota:
    return iota;
  case OpKind::Compare:
    return compare;
  case OpKind::DotGeneral:
    return dotGeneral;
  case OpKind::Transpose:
    return transpose;
  case OpKind::BroadcastInDim:
    return broadcastInDim;
  case OpKind::Reduce:
    return reduce;
  case OpKind::Concatenate:
    return concatenate;
  case OpKind::Slice:
    return slice;
  case OpKind::Pad:
    return pad;
  case OpKind::Reverse:
    return reverse;
  case OpKind::PropagationBarrier:
    return barrier;
  case OpKind::CustomCall:
    return customCall;
  case OpKind::ShardingGroup:
    return shardingGroup;
  case OpKind::ManualComputation:
    return manual;
  case OpKind::AllReduce:
    return allReduce;
  case OpKind::AllGather:
    return allGather;
  case OpKind::ReduceScatter:
    return reduceScatter;
  case OpKind::AllToAll:
    return allToAll;
  case OpKind::CollectivePermute:
    return permute;
  case OpKind::AxisIndex:
    return axisIndex;
  default:
    return {}; // elementwise ops, select, clamp, convert, reshape, constraint
  }
}

} // namespace shardgen
