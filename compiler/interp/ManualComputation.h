#pragma once
// manual_computation, run faithfully: each device of the refined grid gets
// its local shard of every operand (sliced along the manual axes of the
// in_shardings), the body runs on all of them, and the results are put back
// together by the out_shardings.

#include <functional>
#include <optional>
#include <vector>

#include "compiler/interp/DeviceGrid.h"
#include "compiler/ir/Graph.h"

namespace shardgen::interp {

/// Runs a body region on a grid, given one PerDevice per body argument;
/// returns one PerDevice per body result.
using BodyRunner = std::function<std::vector<PerDevice>(const Region &body, const DeviceGrid &grid,
                                                        std::vector<PerDevice> arguments)>;

/// The op's results on every device of `outer`.
std::vector<PerDevice> evalManualComputation(const Graph &graph, const Op &op,
                                             const DeviceGrid &outer,
                                             const std::vector<const PerDevice *> &operands,
                                             const BodyRunner &runBody);

// The steps of evalManualComputation, for callers that run the body
// themselves (the interpreter's error bounds follow the same slices).

/// Throws unless the op has one in_sharding per operand and one
/// out_sharding per result.
void checkManualComputation(const Op &op, size_t numOperands);
/// No in or out shardings: nothing the body does is observable.
bool manualComputationIsEmpty(const Op &op);
/// The grid the body runs on.
DeviceGrid manualGrid(const Graph &graph, const Op &op, const DeviceGrid &outer);
/// Each operand's local shard on every device of `inner`.
std::vector<PerDevice> sliceManualOperands(const Op &op, const DeviceGrid &inner,
                                           const std::vector<const PerDevice *> &operands);
/// The op's results from the body's, by the out_shardings (partials along
/// unreduced manual axes are summed); `elementType` replaces the results'
/// element type (for tensors that shadow the values, such as error bounds).
std::vector<PerDevice> assembleManualResults(const Graph &graph, const Op &op,
                                             const DeviceGrid &outer, const DeviceGrid &inner,
                                             const std::vector<PerDevice> &bodyResults,
                                             std::optional<ElementType> elementType = {});
/// How many partial values result `result` sums: the product of the sizes of
/// the manual axes its out_sharding lists as unreduced (1 if none).
int64_t unreducedManualCount(const Graph &graph, const Op &op, size_t result);

} // namespace shardgen::interp
