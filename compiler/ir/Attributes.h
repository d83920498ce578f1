#pragma once
// Typed attributes of each op, as a variant: an op holds exactly the struct
// of its kind (or NoAttrs). Defaults are the spec's defaults. Each struct
// lists its fields in `schema()` (compiler/ops/AttributeField.h): the JSON
// keys in the spec table's order, the MLIR names, the members. Readers and
// writers walk the schema; adding an attribute is adding it here.

#include <array>
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
  /// StableHLO's compare_type when given: "FLOAT", "TOTALORDER" (floats),
  /// "SIGNED", "UNSIGNED" (integers, i1); absent, the element type's
  /// (TOTALORDER is the one it cannot imply: a sort comparator's).
  std::string compareType;
  bool compareTypeGiven = false;
  bool totalOrder() const { return compareType == "TOTALORDER"; }
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> CompareAttrs::schema() {
  // MLIR: the pretty form's trailing keyword, the generic form's property.
  static constexpr AttrField fields[] = {
      attrField<&CompareAttrs::direction>("comparison_direction", "comparison_direction", ""),
      givenAttrField<&CompareAttrs::compareType, &CompareAttrs::compareTypeGiven>(
          "compare_type", "compare_type", "")};
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
/// reduce_precision's format: JAX prints `format = e5m10`, the generic form
/// the two integers.
struct ReducePrecisionAttrs {
  int64_t exponentBits = 0;
  int64_t mantissaBits = 0;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> ReducePrecisionAttrs::schema() {
  static constexpr AttrField fields[] = {
      attrField<&ReducePrecisionAttrs::exponentBits>("exponent_bits", "exponent_bits", ""),
      attrField<&ReducePrecisionAttrs::mantissaBits>("mantissa_bits", "mantissa_bits", "")};
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

// ---- gather and scatter ----
/// #stablehlo.gather<...>: how gather's operand, start indices and result
/// dims correspond (StableHLO's GatherDimensionNumbers).
struct GatherDimensionNumbers {
  std::vector<int64_t> offsetDims, collapsedSliceDims, operandBatchingDims,
      startIndicesBatchingDims, startIndexMap;
  int64_t indexVectorDim = 0;
  static std::span<const AttrField> schema();
  bool operator==(const GatherDimensionNumbers &) const = default;
};
inline std::span<const AttrField> GatherDimensionNumbers::schema() {
  using G = GatherDimensionNumbers;
  static constexpr AttrField fields[] = {
      attrField<&G::offsetDims>("offset_dims", "offset_dims", "", AttrPresence::Optional),
      attrField<&G::collapsedSliceDims>("collapsed_slice_dims", "collapsed_slice_dims", "",
                                        AttrPresence::Optional),
      attrField<&G::operandBatchingDims>("operand_batching_dims", "operand_batching_dims", "",
                                         AttrPresence::Optional),
      attrField<&G::startIndicesBatchingDims>(
          "start_indices_batching_dims", "start_indices_batching_dims", "", AttrPresence::Optional),
      attrField<&G::startIndexMap>("start_index_map", "start_index_map", "",
                                   AttrPresence::Optional),
      attrField<&G::indexVectorDim>("index_vector_dim", "index_vector_dim", "")};
  return fields;
}
struct GatherAttrs {
  GatherDimensionNumbers dimensionNumbers;
  std::vector<int64_t> sliceSizes;
  bool indicesAreSorted = false; // a hint: the result does not depend on it
  static std::span<const AttrField> schema();
  bool operator==(const GatherAttrs &) const = default;
};
inline std::span<const AttrField> GatherAttrs::schema() {
  static constexpr AttrField fields[] = {
      objectAttrField<&GatherAttrs::dimensionNumbers>("dimension_numbers", "dimension_numbers"),
      attrField<&GatherAttrs::sliceSizes>("slice_sizes", "slice_sizes", ""),
      attrField<&GatherAttrs::indicesAreSorted>("indices_are_sorted", "indices_are_sorted", "",
                                                AttrPresence::Optional)};
  return fields;
}
/// #stablehlo.scatter<...> (StableHLO's ScatterDimensionNumbers).
struct ScatterDimensionNumbers {
  std::vector<int64_t> updateWindowDims, insertedWindowDims, inputBatchingDims,
      scatterIndicesBatchingDims, scatterDimsToOperandDims;
  int64_t indexVectorDim = 0;
  static std::span<const AttrField> schema();
  bool operator==(const ScatterDimensionNumbers &) const = default;
};
inline std::span<const AttrField> ScatterDimensionNumbers::schema() {
  using S = ScatterDimensionNumbers;
  static constexpr AttrField fields[] = {
      attrField<&S::updateWindowDims>("update_window_dims", "update_window_dims", "",
                                      AttrPresence::Optional),
      attrField<&S::insertedWindowDims>("inserted_window_dims", "inserted_window_dims", "",
                                        AttrPresence::Optional),
      attrField<&S::inputBatchingDims>("input_batching_dims", "input_batching_dims", "",
                                       AttrPresence::Optional),
      attrField<&S::scatterIndicesBatchingDims>("scatter_indices_batching_dims",
                                                "scatter_indices_batching_dims", "",
                                                AttrPresence::Optional),
      attrField<&S::scatterDimsToOperandDims>("scatter_dims_to_operand_dims",
                                              "scatter_dims_to_operand_dims", "",
                                              AttrPresence::Optional),
      attrField<&S::indexVectorDim>("index_vector_dim", "index_vector_dim", "")};
  return fields;
}
struct ScatterAttrs {
  ScatterDimensionNumbers dimensionNumbers;
  bool indicesAreSorted = false, uniqueIndices = false; // hints
  static std::span<const AttrField> schema();
  bool operator==(const ScatterAttrs &) const = default;
};
inline std::span<const AttrField> ScatterAttrs::schema() {
  // The update computation is a scalar body, as a reduce's.
  static constexpr AttrField fields[] = {
      objectAttrField<&ScatterAttrs::dimensionNumbers>("scatter_dimension_numbers",
                                                       "scatter_dimension_numbers"),
      attrField<&ScatterAttrs::indicesAreSorted>("indices_are_sorted", "indices_are_sorted", "",
                                                 AttrPresence::Optional),
      attrField<&ScatterAttrs::uniqueIndices>("unique_indices", "unique_indices", "",
                                              AttrPresence::Optional),
      regionField("update_computation", AttrPresence::Required, RegionRole::Scalar)};
  return fields;
}
// ---- sorting ----
struct SortAttrs {
  /// StableHLO allows -rank <= dimension < rank (sortedDim adjusts it).
  int64_t dimension = -1;
  bool isStable = false;
  int64_t sortedDim(int64_t rank) const { return dimension >= 0 ? dimension : dimension + rank; }
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> SortAttrs::schema() {
  // MLIR: properties of the generic form (sort has no pretty form).
  static constexpr AttrField fields[] = {
      attrField<&SortAttrs::dimension>("dimension", "dimension", "", AttrPresence::Optional),
      attrField<&SortAttrs::isStable>("is_stable", "is_stable", "", AttrPresence::Optional),
      regionField("comparator", AttrPresence::Required, RegionRole::Scalar)};
  return fields;
}
struct TopKAttrs {
  int64_t k = 0;
  /// chlo's is_stable (default true); shardgen orders ties by index always.
  bool isStable = true;
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> TopKAttrs::schema() {
  static constexpr AttrField fields[] = {attrField<&TopKAttrs::k>("k", "k", "k"),
                                         attrField<&TopKAttrs::isStable>("is_stable", "is_stable",
                                                                         "is_stable",
                                                                         AttrPresence::Optional)};
  return fields;
}
// ---- windows: reduce_window, select_and_scatter, convolution ----

/// Fills `values` with `size` copies of `fill` when it was not given.
inline void defaultFilled(std::vector<int64_t> &values, size_t size, int64_t fill) {
  if (values.empty())
    values.assign(size, fill);
}
inline void defaultPadding(std::vector<std::array<int64_t, 2>> &padding, size_t size) {
  if (padding.empty())
    padding.assign(size, {0, 0});
}

struct ReduceWindowAttrs {
  std::vector<int64_t> windowDimensions;
  /// 1s when not given; padding 0s.
  std::vector<int64_t> windowStrides, baseDilations, windowDilations;
  std::vector<std::array<int64_t, 2>> padding;
  static std::span<const AttrField> schema();
  void completeDefaults() {
    const size_t rank = windowDimensions.size();
    defaultFilled(windowStrides, rank, 1);
    defaultFilled(baseDilations, rank, 1);
    defaultFilled(windowDilations, rank, 1);
    defaultPadding(padding, rank);
  }
};
inline std::span<const AttrField> ReduceWindowAttrs::schema() {
  // MLIR: always the generic form (StableHLO has no pretty one), the body
  // a region of one accumulator and one element per input.
  static constexpr AttrField fields[] = {
      attrField<&ReduceWindowAttrs::windowDimensions>("window_dimensions", "window_dimensions", ""),
      attrField<&ReduceWindowAttrs::windowStrides>("window_strides", "window_strides", "",
                                                   AttrPresence::Optional),
      attrField<&ReduceWindowAttrs::baseDilations>("base_dilations", "base_dilations", "",
                                                   AttrPresence::Optional),
      attrField<&ReduceWindowAttrs::windowDilations>("window_dilations", "window_dilations", "",
                                                     AttrPresence::Optional),
      attrField<&ReduceWindowAttrs::padding>("padding", "padding", "", AttrPresence::Optional),
      regionField("body", AttrPresence::Required, RegionRole::Scalar)};
  return fields;
}

struct SelectAndScatterAttrs {
  std::vector<int64_t> windowDimensions, windowStrides; // 1s when not given
  std::vector<std::array<int64_t, 2>> padding;          // 0s when not given
  static std::span<const AttrField> schema();
  void completeDefaults() {
    const size_t rank = windowDimensions.size();
    defaultFilled(windowStrides, rank, 1);
    defaultPadding(padding, rank);
  }
};
inline std::span<const AttrField> SelectAndScatterAttrs::schema() {
  // MLIR: the generic form; `select` (a, b -> i1) then `scatter` (a, b -> a).
  static constexpr AttrField fields[] = {
      attrField<&SelectAndScatterAttrs::windowDimensions>("window_dimensions", "window_dimensions",
                                                          ""),
      attrField<&SelectAndScatterAttrs::windowStrides>("window_strides", "window_strides", "",
                                                       AttrPresence::Optional),
      attrField<&SelectAndScatterAttrs::padding>("padding", "padding", "", AttrPresence::Optional),
      regionField("select", AttrPresence::Required, RegionRole::Scalar),
      regionField("scatter", AttrPresence::Required, RegionRole::Scalar)};
  return fields;
}

struct ConvolutionAttrs {
  /// StableHLO's ConvDimensionNumbers, each field a key of its own.
  int64_t inputBatchDimension = 0, inputFeatureDimension = 0;
  std::vector<int64_t> inputSpatialDimensions;
  int64_t kernelInputFeatureDimension = 0, kernelOutputFeatureDimension = 0;
  std::vector<int64_t> kernelSpatialDimensions;
  int64_t outputBatchDimension = 0, outputFeatureDimension = 0;
  std::vector<int64_t> outputSpatialDimensions;
  /// Per spatial dim; 1s (padding 0s, reversal false) when not given.
  std::vector<int64_t> windowStrides, lhsDilation, rhsDilation;
  std::vector<std::array<int64_t, 2>> padding;
  std::vector<bool> windowReversal;
  int64_t featureGroupCount = 1, batchGroupCount = 1;
  static std::span<const AttrField> schema();
  void completeDefaults() {
    const size_t spatial = inputSpatialDimensions.size();
    defaultFilled(windowStrides, spatial, 1);
    defaultFilled(lhsDilation, spatial, 1);
    defaultFilled(rhsDilation, spatial, 1);
    defaultPadding(padding, spatial);
    if (windowReversal.empty())
      windowReversal.assign(spatial, false);
  }
};
inline std::span<const AttrField> ConvolutionAttrs::schema() {
  // MLIR: `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window =
  // {...}` (pretty) or #stablehlo.conv<...> (generic); precision_config is
  // read and ignored (shardgen computes in the element type).
  using C = ConvolutionAttrs;
  static constexpr AttrField fields[] = {
      attrField<&C::inputBatchDimension>("input_batch_dimension", "", ""),
      attrField<&C::inputFeatureDimension>("input_feature_dimension", "", ""),
      attrField<&C::inputSpatialDimensions>("input_spatial_dimensions", "", ""),
      attrField<&C::kernelInputFeatureDimension>("kernel_input_feature_dimension", "", ""),
      attrField<&C::kernelOutputFeatureDimension>("kernel_output_feature_dimension", "", ""),
      attrField<&C::kernelSpatialDimensions>("kernel_spatial_dimensions", "", ""),
      attrField<&C::outputBatchDimension>("output_batch_dimension", "", ""),
      attrField<&C::outputFeatureDimension>("output_feature_dimension", "", ""),
      attrField<&C::outputSpatialDimensions>("output_spatial_dimensions", "", ""),
      attrField<&C::windowStrides>("window_strides", "window_strides", "", AttrPresence::Optional),
      attrField<&C::padding>("padding", "padding", "", AttrPresence::Optional),
      attrField<&C::lhsDilation>("lhs_dilation", "lhs_dilation", "", AttrPresence::Optional),
      attrField<&C::rhsDilation>("rhs_dilation", "rhs_dilation", "", AttrPresence::Optional),
      attrField<&C::windowReversal>("window_reversal", "window_reversal", "",
                                    AttrPresence::Optional),
      attrField<&C::featureGroupCount>("feature_group_count", "feature_group_count", "",
                                       AttrPresence::Optional),
      attrField<&C::batchGroupCount>("batch_group_count", "batch_group_count", "",
                                     AttrPresence::Optional)};
  return fields;
}
// ---- random bits ----
/// StableHLO's RngAlgorithm; DEFAULT is XLA CPU's: PHILOX.
enum class RngAlgorithm { Default, ThreeFry, Philox };
std::optional<RngAlgorithm> parseRngAlgorithm(std::string_view text); // DEFAULT, THREE_FRY, PHILOX
std::string_view rngAlgorithmName(RngAlgorithm algorithm);
/// The dim XLA halves for 32-bit THREE_FRY output (prng.cc's
/// SplitShapeIntoHalves): the first of even size, else the first largest;
/// 0 for a scalar.
int64_t threefrySplitDim(const Shape &shape);
struct RngBitGeneratorAttrs {
  /// The word as given (DEFAULT, THREE_FRY, PHILOX): the type rule checks it.
  std::string rngAlgorithm = "DEFAULT";
  /// The algorithm that runs (DEFAULT is PHILOX, as on XLA's CPU backend);
  /// only after the type rule accepted the word.
  RngAlgorithm algorithm() const {
    const std::optional<RngAlgorithm> parsed = parseRngAlgorithm(rngAlgorithm);
    return parsed && *parsed != RngAlgorithm::Default ? *parsed : RngAlgorithm::Philox;
  }
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> RngBitGeneratorAttrs::schema() {
  // MLIR: `algorithm = DEFAULT` (pretty), #stablehlo<rng_algorithm DEFAULT> (generic).
  static constexpr AttrField fields[] = {attrField<&RngBitGeneratorAttrs::rngAlgorithm>(
      "rng_algorithm", "rng_algorithm", "algorithm")};
  return fields;
}
// ---- control flow (issue 25) ----
struct WhileAttrs {
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> WhileAttrs::schema() {
  static constexpr AttrField fields[] = {controlRegionField("cond"), controlRegionField("body")};
  return fields;
}
struct CaseAttrs {
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> CaseAttrs::schema() {
  static constexpr AttrField fields[] = {controlRegionListField("branches")};
  return fields;
}
struct IfAttrs {
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> IfAttrs::schema() {
  static constexpr AttrField fields[] = {controlRegionField("true_branch"),
                                         controlRegionField("false_branch")};
  return fields;
}

// ---- Fourier transforms ----
/// StableHLO's FftType.
enum class FftType { Fft, Ifft, Rfft, Irfft };
std::optional<FftType> parseFftType(std::string_view text); // FFT, IFFT, RFFT, IRFFT
std::string_view fftTypeName(FftType type);
struct FftAttrs {
  /// The word as given (FFT, IFFT, RFFT, IRFFT): the type rule checks it.
  std::string fftType = "FFT";
  /// The lengths of the trailing 1 to 3 dims the transform runs over.
  std::vector<int64_t> fftLength;
  /// The transform; only after the type rule accepted the word.
  FftType type() const { return parseFftType(fftType).value_or(FftType::Fft); }
  static std::span<const AttrField> schema();
};
inline std::span<const AttrField> FftAttrs::schema() {
  // MLIR: `type = FFT, length = [4]` (pretty), #stablehlo<fft_type FFT> and
  // array<i64: 4> (generic).
  static constexpr AttrField fields[] = {
      attrField<&FftAttrs::fftType>("fft_type", "fft_type", "type"),
      attrField<&FftAttrs::fftLength>("fft_length", "fft_length", "length")};
  return fields;
}

using Attributes =
    std::variant<NoAttrs, ConstantAttrs, IotaAttrs, CompareAttrs, DotGeneralAttrs, TransposeAttrs,
                 BroadcastInDimAttrs, ReduceAttrs, ConcatenateAttrs, SliceAttrs, PadAttrs,
                 ReverseAttrs, DynamicSliceAttrs, PropagationBarrierAttrs, CustomCallAttrs,
                 ShardingGroupAttrs, ManualComputationAttrs, AllReduceAttrs, AllGatherAttrs,
                 ReduceScatterAttrs, AllToAllAttrs, CollectivePermuteAttrs, AxisIndexAttrs,
                 ReducePrecisionAttrs, GatherAttrs, ScatterAttrs, SortAttrs, TopKAttrs,
                 ReduceWindowAttrs, SelectAndScatterAttrs, ConvolutionAttrs, WhileAttrs, CaseAttrs,
                 IfAttrs, RngBitGeneratorAttrs, FftAttrs>;

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
