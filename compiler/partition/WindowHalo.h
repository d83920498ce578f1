#pragma once
// Windowed ops (reduce_window, convolution) on a spatially sharded dim, as
// XLA's SPMD partitioner does them: each device computes the windows of its
// own piece of the result from its shard of the input and the rows its
// windows read beyond it (a halo) from its neighbours' shards. The global
// padding then applies only at the dim's two ends; an interior edge reads
// the halo instead.
//
// The partitioner asks windowReachFor what each device's input piece is
// then (a layout whose pieces overlap); the code generator and the SPMD
// simulator ask localWindowPadding what padding a device's local op takes.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/partition/ShardLayout.h"

namespace shardgen {

/// One dim a windowed op slides its windows over.
struct WindowedDim {
  int64_t operandDim = 0, resultDim = 0;
  int64_t stride = 1;
  int64_t windowExtent = 1; // the window's span in input elements, dilation included
  int64_t baseDilation = 1;
  std::array<int64_t, 2> padding{0, 0};
};

/// The windowed dims of `op`, in the order of its padding attribute
/// (reduce_window: every dim; convolution: the spatial dims); none for
/// other ops.
std::vector<WindowedDim> windowedDims(const Graph &graph, const Op &op);

/// How many leading operands the windows slide over (reduce_window's
/// inputs, convolution's lhs); 0 for other ops.
size_t numWindowedOperands(const Op &op);

/// The pieces of the windowed operand's `dim` (of `inSize`) when the
/// result's (of `outSize`) is cut into `shards` chunks, each device
/// computing its own windows: the rows those windows read, its shard's and
/// the halo beyond it (ShardLayout's WindowReach). None when the windows do
/// not map to input rows one to one (a base dilation) or nothing is cut.
std::optional<WindowReach> windowReachFor(const WindowedDim &dim, int64_t outSize, int64_t shards);

/// The padding attribute of the op a device runs on its pieces (`in`: the
/// windowed operand's layout, halo included; `out`: the result's): the
/// global padding on a dim both hold whole; else, on a piece cut from the
/// dim, what lies before its first window (the global padding only on the
/// first piece) and what its last window reads beyond it (the global padding
/// only on the last).
std::vector<std::array<int64_t, 2>> localWindowPadding(const Graph &graph, const Op &op,
                                                       const ShardLayout &in,
                                                       const ShardLayout &out, int64_t device);

/// Whether a windowed dim of `in` (the windowed operand's layout) is cut
/// into pieces, so that the local padding may differ between devices of
/// equal piece shapes (a dim the windows pass through does not count).
bool cutsWindowedDims(const Graph &graph, const Op &op, const ShardLayout &in);

} // namespace shardgen
