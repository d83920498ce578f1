#pragma once
// Typed attributes of each op, as a variant: an op holds exactly the struct
// of its kind (or NoAttrs). Defaults are the spec's defaults. Each struct
// lists its fields in `schema()` (compiler/ops/AttributeField.h): the JSON
// keys in the spec table's order, the MLIR names, the members. Readers and
// writers walk the schema; adding an attribute is adding it here.

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/include/shardgen/reducer.h"

#include "compiler/ir/BoxedOptional.h"
#include "compiler/ir/Literal.h"
#include "compiler/ir/OpShardingRule.h"
#include "compiler/ir/Sharding.h"
#include "compiler/ops/AttributeField.h"

namespace shardgen {

enum class ComparisonDirection { EQ, NE, LT, LE, GT, GE };
using runtime::Reducer; // one enum with the runtime and generated code
enum class BarrierDirection { None, Forward, Backward, Both };

std::string_view comparisonDirectionName(ComparisonDirection d);
std::optional<ComparisonDirection> parseComparisonDirection(std::string_view text);
std::string_view reducerName(Reducer r);
std::optional<Reducer> parseReducer(std::string_view text);
std::string_view barrierDirectionName(BarrierDirection d);
std::optional<BarrierDirection> parseBarrierDirection(std::string_view text);

struct NoAttrs {
  static std::span<const AttrField> schema() { return {}; }
};
struct ConstantAttrs {
  /// The result type.
  TensorType type;
  /// Every element, row-major; for a splat, the one element they all are
  /// (a rank-0 literal, zero when the type has no elements). A splat is not
  /// expanded until a kernel needs it (expanded()), so a small file cannot
  /// make a command allocate a huge constant before its memory is checked.
  Literal elements;
  bool splat = false; // written back as one number
  static std::span<const AttrField> schema();

  /// A constant of every element of `value` (its type is the constant's).
  static ConstantAttrs dense(Literal value);
  /// `type` filled with `element`, a rank-0 literal of its element type.
  static ConstantAttrs splatOf(TensorType type, Literal element);
  /// The whole tensor (a splat repeated: this allocates its size).
  Literal expanded() const;
  /// Element `index` (as Literal::getFloat/getInt), without expanding.
  double getFloat(int64_t index) const { return elements.getFloat(splat ? 0 : index); }
  int64_t getInt(int64_t index) const { return elements.getInt(splat ? 0 : index); }
  double getImag(int64_t index) const { return elements.getImag(splat ? 0 : index); }
};
inline std::span<const AttrField> ConstantAttrs::schema() {
  // The value is read with the result type (frontend/ConstantValue.h): the
  // field is the whole struct (type, elements and splat).
  static constexpr AttrField fields[] = {{"value", "value", "", AttrKind::Constant,
                                          AttrPresence::Required,
                                          [](void *attrs) { return attrs; }}};
  return fields;
}
struct IotaAttrs {
  int64_t iotaDimension = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> IotaAttrs::schema() {
  // StableHLO always prints it; for a rank-1 iota 0 is the only choice.
  static constexpr AttrField fields[] = {attrField<&IotaAttrs::iotaDimension>(
      "iota_dimension", "iota_dimension", "dim", AttrPresence::Optional)};
  return fields;
}
struct CompareAttrs {
  ComparisonDirection direction = ComparisonDirection::EQ;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> CompareAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&CompareAttrs::direction>("comparison_direction", "comparison_direction", "")};
  return fields;
}
struct DotGeneralAttrs {
  std::vector<int64_t> lhsBatchingDimensions, rhsBatchingDimensions;
  std::vector<int64_t> lhsContractingDimensions, rhsContractingDimensions;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> DotGeneralAttrs::schema() {
  // MLIR: the fields of #stablehlo.dot<...>; pretty `batching_dims = [..] x [..]`.
  static constexpr AttrField fields[] = {
      attrField<&DotGeneralAttrs::lhsBatchingDimensions>(
          "lhs_batching_dimensions", "lhs_batching_dimensions", "", AttrPresence::Optional),
      attrField<&DotGeneralAttrs::rhsBatchingDimensions>(
          "rhs_batching_dimensions", "rhs_batching_dimensions", "", AttrPresence::Optional),
      attrField<&DotGeneralAttrs::lhsContractingDimensions>(
          "lhs_contracting_dimensions", "lhs_contracting_dimensions", "", AttrPresence::Optional),
      attrField<&DotGeneralAttrs::rhsContractingDimensions>(
          "rhs_contracting_dimensions", "rhs_contracting_dimensions", "", AttrPresence::Optional)};
  return fields;
}
/// The dims of a rank-`rank` dot_general operand that are neither batching
/// nor contracting, in order: the operand's free dims in the result.
std::vector<int64_t> dotGeneralFreeDims(int64_t rank, const std::vector<int64_t> &batching,
                                        const std::vector<int64_t> &contracting);

struct TransposeAttrs {
  std::vector<int64_t> permutation;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> TransposeAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&TransposeAttrs::permutation>("permutation", "permutation", "dims")};
  return fields;
}
struct BroadcastInDimAttrs {
  std::vector<int64_t> broadcastDimensions;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> BroadcastInDimAttrs::schema() {
  static constexpr AttrField fields[] = {attrField<&BroadcastInDimAttrs::broadcastDimensions>(
      "broadcast_dimensions", "broadcast_dimensions", "dims")};
  return fields;
}
struct ReduceAttrs {
  std::vector<int64_t> dimensions;
  /// The `reducer` key: one of the six simple reducers. Empty when the op
  /// holds its body as a region instead (simpleReducer in Graph.h tells
  /// whether that body is one of the six all the same).
  std::optional<Reducer> reducer;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ReduceAttrs::schema() {
  // MLIR: the reducer is the body region's op. One of `reducer` and `body`
  // is given (the type rule checks which).
  static constexpr AttrField fields[] = {
      attrField<&ReduceAttrs::dimensions>("dimensions", "dimensions", ""),
      attrField<&ReduceAttrs::reducer>("reducer", "", "", AttrPresence::WhenGiven),
      regionField("body", AttrPresence::WhenGiven, RegionRole::Scalar)};
  return fields;
}
struct ConcatenateAttrs {
  int64_t dimension = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ConcatenateAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&ConcatenateAttrs::dimension>("dimension", "dimension", "dim")};
  return fields;
}
struct SliceAttrs {
  std::vector<int64_t> startIndices, limitIndices;
  std::vector<int64_t> strides; // all 1s when not given
  bool stridesGiven = false;
  static std::span<const AttrField> schema();
  void completeDefaults() {
    if (!stridesGiven)
      strides.assign(startIndices.size(), 1);
  }
};
inline std::span<const AttrField> SliceAttrs::schema() {
  // MLIR's pretty form is `%x [0:2, 1:4:2]`.
  static constexpr AttrField fields[] = {
      attrField<&SliceAttrs::startIndices>("start_indices", "start_indices", ""),
      attrField<&SliceAttrs::limitIndices>("limit_indices", "limit_indices", ""),
      givenAttrField<&SliceAttrs::strides, &SliceAttrs::stridesGiven>("strides", "strides", "")};
  return fields;
}
struct PadAttrs {
  std::vector<int64_t> edgePaddingLow, edgePaddingHigh, interiorPadding;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> PadAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&PadAttrs::edgePaddingLow>("edge_padding_low", "edge_padding_low", "low"),
      attrField<&PadAttrs::edgePaddingHigh>("edge_padding_high", "edge_padding_high", "high"),
      attrField<&PadAttrs::interiorPadding>("interior_padding", "interior_padding", "interior")};
  return fields;
}
struct ReverseAttrs {
  std::vector<int64_t> dimensions;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ReverseAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&ReverseAttrs::dimensions>("dimensions", "dimensions", "dims")};
  return fields;
}
struct DynamicSliceAttrs {
  std::vector<int64_t> sliceSizes;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> DynamicSliceAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&DynamicSliceAttrs::sliceSizes>("slice_sizes", "slice_sizes", "sizes")};
  return fields;
}
struct PropagationBarrierAttrs {
  BarrierDirection allowedDirection = BarrierDirection::None;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> PropagationBarrierAttrs::schema() {
  static constexpr AttrField fields[] = {attrField<&PropagationBarrierAttrs::allowedDirection>(
      "allowed_direction", "allowed_direction", "allowed_direction")};
  return fields;
}
struct CustomCallAttrs {
  std::string callTargetName;
  /// Boxed: a rule is large and rare, and the variant of every op would be
  /// as large as it.
  BoxedOptional<OpShardingRule> shardingRule;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> CustomCallAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&CustomCallAttrs::callTargetName>("call_target_name", "call_target_name", ""),
      attrField<&CustomCallAttrs::shardingRule>("sharding_rule", "sdy.sharding_rule", "",
                                                AttrPresence::WhenGiven)};
  return fields;
}
struct ShardingGroupAttrs {
  int64_t groupId = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ShardingGroupAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&ShardingGroupAttrs::groupId>("group_id", "group_id", "group_id")};
  return fields;
}
struct ManualComputationAttrs {
  std::vector<TensorSharding> inShardings;
  std::vector<TensorSharding> outShardings;
  std::vector<std::string> manualAxes;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ManualComputationAttrs::schema() {
  // Shardy allows a manual computation with no manual axes.
  static constexpr AttrField fields[] = {
      attrField<&ManualComputationAttrs::inShardings>("in_shardings", "in_shardings",
                                                      "in_shardings"),
      attrField<&ManualComputationAttrs::outShardings>("out_shardings", "out_shardings",
                                                       "out_shardings"),
      attrField<&ManualComputationAttrs::manualAxes>("manual_axes", "manual_axes", "manual_axes",
                                                     AttrPresence::Optional),
      regionField("body")};
  return fields;
}
struct AllReduceAttrs {
  std::vector<std::string> axes;
  Reducer reducer = Reducer::Add;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> AllReduceAttrs::schema() {
  // MLIR: the axes are replica_groups, the reducer the body region's op.
  static constexpr AttrField fields[] = {attrField<&AllReduceAttrs::axes>("axes", "", ""),
                                         attrField<&AllReduceAttrs::reducer>("reducer", "", "")};
  return fields;
}
struct AllGatherAttrs {
  std::vector<std::string> axes;
  int64_t dimension = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> AllGatherAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&AllGatherAttrs::axes>("axes", "", ""),
      attrField<&AllGatherAttrs::dimension>("dimension", "all_gather_dim", "")};
  return fields;
}
struct ReduceScatterAttrs {
  std::vector<std::string> axes;
  int64_t dimension = 0;
  Reducer reducer = Reducer::Add;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ReduceScatterAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&ReduceScatterAttrs::axes>("axes", "", ""),
      attrField<&ReduceScatterAttrs::dimension>("dimension", "scatter_dimension", ""),
      attrField<&ReduceScatterAttrs::reducer>("reducer", "", "")};
  return fields;
}
struct AllToAllAttrs {
  std::vector<std::string> axes;
  int64_t splitDimension = 0, concatDimension = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> AllToAllAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&AllToAllAttrs::axes>("axes", "", ""),
      attrField<&AllToAllAttrs::splitDimension>("split_dimension", "split_dimension", ""),
      attrField<&AllToAllAttrs::concatDimension>("concat_dimension", "concat_dimension", "")};
  return fields;
}
struct CollectivePermuteAttrs {
  std::vector<std::string> axes;
  int64_t shift = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> CollectivePermuteAttrs::schema() {
  // MLIR: axes and shift are source_target_pairs.
  static constexpr AttrField fields[] = {
      attrField<&CollectivePermuteAttrs::axes>("axes", "", ""),
      attrField<&CollectivePermuteAttrs::shift>("shift", "", "")};
  return fields;
}
struct AxisIndexAttrs {
  std::string axis;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> AxisIndexAttrs::schema() {
  static constexpr AttrField fields[] = {attrField<&AxisIndexAttrs::axis>("axis", "axis", "")};
  return fields;
}

using Attributes =
    std::variant<NoAttrs, ConstantAttrs, IotaAttrs, CompareAttrs, DotGeneralAttrs, TransposeAttrs,
                 BroadcastInDimAttrs, ReduceAttrs, ConcatenateAttrs, SliceAttrs, PadAttrs,
                 ReverseAttrs, DynamicSliceAttrs, PropagationBarrierAttrs, CustomCallAttrs,
                 ShardingGroupAttrs, ManualComputationAttrs, AllReduceAttrs, AllGatherAttrs,
                 ReduceScatterAttrs, AllToAllAttrs, CollectivePermuteAttrs, AxisIndexAttrs>;

/// An op's attributes, boxed: the variant is as large as its largest
/// alternative (104 bytes) and most ops of a large graph have none, so an op
/// holds a pointer, null for NoAttrs. Reads see the variant.
class OpAttributes {
public:
  OpAttributes() = default;
  template <typename T>
    requires(!std::same_as<std::decay_t<T>, OpAttributes> &&
             std::is_constructible_v<Attributes, T &&>)
  OpAttributes(T &&attrs) // NOLINT: converts as the variant does
      : box_(std::make_unique<Attributes>(std::forward<T>(attrs))) {
    if (std::holds_alternative<NoAttrs>(*box_))
      box_.reset();
  }
  OpAttributes(const OpAttributes &other)
      : box_(other.box_ ? std::make_unique<Attributes>(*other.box_) : nullptr) {}
  OpAttributes(OpAttributes &&) noexcept = default;
  OpAttributes &operator=(const OpAttributes &other) {
    if (this != &other)
      box_ = other.box_ ? std::make_unique<Attributes>(*other.box_) : nullptr;
    return *this;
  }
  OpAttributes &operator=(OpAttributes &&) noexcept = default;
  ~OpAttributes() = default;

  const Attributes &get() const { return box_ ? *box_ : none(); }
  operator const Attributes &() const { return get(); } // NOLINT: reads as the variant
  /// The variant to change in place (boxes NoAttrs when empty).
  Attributes &mutableGet() {
    if (!box_)
      box_ = std::make_unique<Attributes>();
    return *box_;
  }

private:
  static const Attributes &none() {
    static const Attributes kNone;
    return kNone;
  }
  std::unique_ptr<Attributes> box_;
};

} // namespace shardgen
