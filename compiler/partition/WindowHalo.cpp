#include "compiler/partition/WindowHalo.h"

#include <algorithm>

namespace shardgen {

std::vector<WindowedDim> windowedDims(const Graph &graph, const Op &op) {
  std::vector<WindowedDim> dims;
  if (op.kind == OpKind::ReduceWindow) {
    const auto &a = op.attr<ReduceWindowAttrs>();
    for (size_t d = 0; d < a.windowDimensions.size(); ++d) {
      const auto dim = static_cast<int64_t>(d);
      dims.push_back({dim, dim, a.windowStrides[d],
                      (a.windowDimensions[d] - 1) * a.windowDilations[d] + 1, a.baseDilations[d],
                      a.padding[d]});
    }
  } else if (op.kind == OpKind::Convolution) {
    const auto &a = op.attr<ConvolutionAttrs>();
    const Shape &kernel = graph.type(op.operands[1]).shape;
    for (size_t i = 0; i < a.inputSpatialDimensions.size(); ++i)
      dims.push_back({a.inputSpatialDimensions[i], a.outputSpatialDimensions[i], a.windowStrides[i],
                      (kernel[a.kernelSpatialDimensions[i]] - 1) * a.rhsDilation[i] + 1,
                      a.lhsDilation[i], a.padding[i]});
  }
  return dims;
}

size_t numWindowedOperands(const Op &op) {
  if (op.kind == OpKind::ReduceWindow)
    return op.operands.size() / 2;
  return op.kind == OpKind::Convolution ? 1 : 0;
}

std::optional<WindowReach> windowReachFor(const WindowedDim &dim, int64_t outSize, int64_t shards) {
  if (shards <= 1 || dim.baseDilation != 1 || dim.stride < 1 || dim.windowExtent < 1)
    return std::nullopt;
  return WindowReach{outSize, (outSize + shards - 1) / shards, dim.stride, dim.padding[0],
                     dim.windowExtent};
}

std::vector<std::array<int64_t, 2>> localWindowPadding(const Graph &graph, const Op &op,
                                                       const ShardLayout &in,
                                                       const ShardLayout &out, int64_t device) {
  std::vector<std::array<int64_t, 2>> padding;
  for (const WindowedDim &dim : windowedDims(graph, op)) {
    const int64_t inOffset = in.offset(device, dim.operandDim),
                  inExtent = in.extent(device, dim.operandDim),
                  outOffset = out.offset(device, dim.resultDim),
                  outExtent = out.extent(device, dim.resultDim);
    const bool whole = inExtent == in.globalType.shape[dim.operandDim] &&
                       outExtent == out.globalType.shape[dim.resultDim];
    if (whole || outExtent == 0) {
      padding.push_back(dim.padding);
      continue;
    }
    // Cut dims have no base dilation (windowReachFor; a pass-through dim's
    // factor is not cut when one changes its size).
    const int64_t low = dim.padding[0] + inOffset - outOffset * dim.stride;
    padding.push_back({low, (outExtent - 1) * dim.stride + dim.windowExtent - inExtent - low});
  }
  return padding;
}

bool cutsWindowedDims(const Graph &graph, const Op &op, const ShardLayout &in) {
  const std::vector<WindowedDim> dims = windowedDims(graph, op);
  // (A dim the windows pass through, window 1, stride 1, no padding, takes
  // no padding on any piece.)
  return std::any_of(dims.begin(), dims.end(), [&](const WindowedDim &dim) {
    const bool passThrough = dim.windowExtent == 1 && dim.stride == 1 && dim.baseDilation == 1 &&
                             dim.padding == std::array<int64_t, 2>{0, 0};
    return !passThrough && in.numShards(dim.operandDim) > 1;
  });
}

} // namespace shardgen
