#pragma once
// Field-by-field comparison of two graphs for round-trip tests; reports the
// first difference through doctest so a failure says what differs.

#include <doctest/doctest.h>

#include <string>

#include "compiler/ir/Graph.h"

namespace shardgen::testing {

inline bool sameAttributes(const Attributes &a, const Attributes &b) {
  if (a.index() != b.index())
    return false;
  return std::visit(
      [&](const auto &left) {
        using T = std::decay_t<decltype(left)>;
        const T &right = std::get<T>(b);
        if constexpr (std::is_same_v<T, NoAttrs> || std::is_same_v<T, WhileAttrs> ||
                      std::is_same_v<T, CaseAttrs> || std::is_same_v<T, IfAttrs>)
          return true; // (control flow: the regions are compared with the op)
        else if constexpr (std::is_same_v<T, ConstantAttrs>)
          return left.type == right.type && left.elements == right.elements &&
                 left.splat == right.splat;
        else if constexpr (std::is_same_v<T, IotaAttrs>)
          return left.iotaDimension == right.iotaDimension;
        else if constexpr (std::is_same_v<T, CompareAttrs>)
          return left.direction == right.direction && left.compareType == right.compareType &&
                 left.compareTypeGiven == right.compareTypeGiven;
        else if constexpr (std::is_same_v<T, DotGeneralAttrs>)
          return left.lhsBatchingDimensions == right.lhsBatchingDimensions &&
                 left.rhsBatchingDimensions == right.rhsBatchingDimensions &&
                 left.lhsContractingDimensions == right.lhsContractingDimensions &&
                 left.rhsContractingDimensions == right.rhsContractingDimensions;
        else if constexpr (std::is_same_v<T, TransposeAttrs>)
          return left.permutation == right.permutation;
        else if constexpr (std::is_same_v<T, BroadcastInDimAttrs>)
          return left.broadcastDimensions == right.broadcastDimensions;
        else if constexpr (std::is_same_v<T, ReduceAttrs>)
          return left.dimensions == right.dimensions && left.reducer == right.reducer;
        else if constexpr (std::is_same_v<T, ConcatenateAttrs>)
          return left.dimension == right.dimension;
        else if constexpr (std::is_same_v<T, SliceAttrs>)
          return left.startIndices == right.startIndices &&
                 left.limitIndices == right.limitIndices && left.strides == right.strides &&
                 left.stridesGiven == right.stridesGiven;
        else if constexpr (std::is_same_v<T, PadAttrs>)
          return left.edgePaddingLow == right.edgePaddingLow &&
                 left.edgePaddingHigh == right.edgePaddingHigh &&
                 left.interiorPadding == right.interiorPadding;
        else if constexpr (std::is_same_v<T, ReverseAttrs>)
          return left.dimensions == right.dimensions;
        else if constexpr (std::is_same_v<T, DynamicSliceAttrs>)
          return left.sliceSizes == right.sliceSizes;
        else if constexpr (std::is_same_v<T, PropagationBarrierAttrs>)
          return left.allowedDirection == right.allowedDirection;
        else if constexpr (std::is_same_v<T, CustomCallAttrs>)
          return left.callTargetName == right.callTargetName &&
                 left.shardingRule == right.shardingRule;
        else if constexpr (std::is_same_v<T, ShardingGroupAttrs>)
          return left.groupId == right.groupId;
        else if constexpr (std::is_same_v<T, ManualComputationAttrs>)
          return left.inShardings == right.inShardings && left.outShardings == right.outShardings &&
                 left.manualAxes == right.manualAxes;
        else if constexpr (std::is_same_v<T, AllReduceAttrs>)
          return left.axes == right.axes && left.reducer == right.reducer;
        else if constexpr (std::is_same_v<T, AllGatherAttrs>)
          return left.axes == right.axes && left.dimension == right.dimension;
        else if constexpr (std::is_same_v<T, ReduceScatterAttrs>)
          return left.axes == right.axes && left.dimension == right.dimension &&
                 left.reducer == right.reducer;
        else if constexpr (std::is_same_v<T, AllToAllAttrs>)
          return left.axes == right.axes && left.splitDimension == right.splitDimension &&
                 left.concatDimension == right.concatDimension;
        else if constexpr (std::is_same_v<T, CollectivePermuteAttrs>)
          return left.axes == right.axes && left.shift == right.shift;
        else if constexpr (std::is_same_v<T, ReducePrecisionAttrs>)
          return left.exponentBits == right.exponentBits && left.mantissaBits == right.mantissaBits;
        else if constexpr (std::is_same_v<T, GatherAttrs> || std::is_same_v<T, ScatterAttrs>)
          return left == right;
        else if constexpr (std::is_same_v<T, SortAttrs>)
          return left.dimension == right.dimension && left.isStable == right.isStable;
        else if constexpr (std::is_same_v<T, TopKAttrs>)
          return left.k == right.k && left.isStable == right.isStable;
        else if constexpr (std::is_same_v<T, ReduceWindowAttrs>)
          return left.windowDimensions == right.windowDimensions &&
                 left.windowStrides == right.windowStrides &&
                 left.baseDilations == right.baseDilations &&
                 left.windowDilations == right.windowDilations && left.padding == right.padding;
        else if constexpr (std::is_same_v<T, SelectAndScatterAttrs>)
          return left.windowDimensions == right.windowDimensions &&
                 left.windowStrides == right.windowStrides && left.padding == right.padding;
        else if constexpr (std::is_same_v<T, ConvolutionAttrs>)
          return left.inputBatchDimension == right.inputBatchDimension &&
                 left.inputFeatureDimension == right.inputFeatureDimension &&
                 left.inputSpatialDimensions == right.inputSpatialDimensions &&
                 left.kernelInputFeatureDimension == right.kernelInputFeatureDimension &&
                 left.kernelOutputFeatureDimension == right.kernelOutputFeatureDimension &&
                 left.kernelSpatialDimensions == right.kernelSpatialDimensions &&
                 left.outputBatchDimension == right.outputBatchDimension &&
                 left.outputFeatureDimension == right.outputFeatureDimension &&
                 left.outputSpatialDimensions == right.outputSpatialDimensions &&
                 left.windowStrides == right.windowStrides && left.padding == right.padding &&
                 left.lhsDilation == right.lhsDilation && left.rhsDilation == right.rhsDilation &&
                 left.windowReversal == right.windowReversal &&
                 left.featureGroupCount == right.featureGroupCount &&
                 left.batchGroupCount == right.batchGroupCount;
        else if constexpr (std::is_same_v<T, RngBitGeneratorAttrs>)
          return left.rngAlgorithm == right.rngAlgorithm;
        else if constexpr (std::is_same_v<T, FftAttrs>)
          return left.fftType == right.fftType && left.fftLength == right.fftLength;
        else
          return left.axis == right.axis; // AxisIndexAttrs
      },
      a);
}

inline void checkSameArguments(const std::vector<RegionArgument> &a,
                               const std::vector<RegionArgument> &b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("argument/result " << a[i].pointer);
    CHECK(a[i].value == b[i].value);
    CHECK(a[i].sharding == b[i].sharding);
    CHECK(a[i].distribution == b[i].distribution);
    CHECK(a[i].pointer == b[i].pointer);
    CHECK(a[i].metadata == b[i].metadata);
  }
}

inline void checkSameRegion(const Region &a, const Region &b) {
  INFO("region " << a.pointer);
  CHECK(a.pointer == b.pointer);
  CHECK(a.metadata == b.metadata);
  checkSameArguments(a.args, b.args);
  checkSameArguments(a.results, b.results);
  REQUIRE(a.ops.size() == b.ops.size());
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const Op &x = a.ops[i], &y = b.ops[i];
    INFO("op " << x.pointer);
    CHECK(x.kind == y.kind);
    CHECK(x.pointer == y.pointer);
    CHECK(x.operands == y.operands);
    CHECK(x.results == y.results);
    CHECK(x.declaredTypes == y.declaredTypes);
    CHECK(x.shardings == y.shardings);
    CHECK(x.distributions == y.distributions);
    CHECK(x.pluralResults == y.pluralResults);
    CHECK(sameAttributes(x.attrs, y.attrs));
    CHECK(x.metadata == y.metadata);
    REQUIRE(x.regions.size() == y.regions.size());
    for (size_t r = 0; r < x.regions.size(); ++r)
      checkSameRegion(x.regions[r], y.regions[r]);
  }
}

inline void checkSameGraph(const Graph &a, const Graph &b) {
  CHECK(a.name == b.name);
  CHECK(a.metadata == b.metadata);
  REQUIRE(a.meshes.size() == b.meshes.size());
  for (size_t i = 0; i < a.meshes.size(); ++i) {
    CHECK(a.meshes[i].name == b.meshes[i].name);
    CHECK(a.meshes[i].axes == b.meshes[i].axes);
    CHECK(a.meshes[i].deviceIds == b.meshes[i].deviceIds);
    CHECK(a.meshes[i].pointer == b.meshes[i].pointer);
    CHECK(a.meshes[i].metadata == b.meshes[i].metadata);
  }
  REQUIRE(a.values.size() == b.values.size());
  for (size_t i = 0; i < a.values.size(); ++i) {
    INFO("value " << a.values[i].name);
    CHECK(a.values[i].name == b.values[i].name);
    CHECK(a.values[i].type == b.values[i].type);
    CHECK(a.values[i].pointer() == b.values[i].pointer());
    CHECK(a.values[i].resultIndex == b.values[i].resultIndex);
    CHECK(a.values[i].argumentIndex == b.values[i].argumentIndex);
    CHECK((a.values[i].definingOp == nullptr) == (b.values[i].definingOp == nullptr));
  }
  checkSameRegion(a.main, b.main);
}

} // namespace shardgen::testing
