#include "compiler/interp/ManualComputation.h"

#include <algorithm>
#include <set>

#include "compiler/interp/Kernels.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::interp {
namespace {

/// One device's shard of a tensor: its index along each dim (row-major over
/// the dim's manual axes), where it starts and its shape.
struct Shard {
  std::vector<int64_t> index;
  std::vector<int64_t> offsets;
  Shape shape;
};

bool contains(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The shard of a tensor of `globalShape` that the device at `coordinates`
/// holds under `sharding`, counting only `manualAxes` (free axes do not
/// split a body's values: the body is global with respect to them).
Shard shardOf(const TensorSharding &sharding, const Shape &globalShape,
              const std::vector<int64_t> &coordinates, const Mesh &mesh,
              const std::vector<std::string> &manualAxes, const std::string &pointer) {
  if (sharding.rank() != static_cast<int64_t>(globalShape.size()))
    fail(pointer, "the sharding has " + std::to_string(sharding.rank()) +
                      " dims but the tensor has rank " + std::to_string(globalShape.size()));
  Shard shard;
  for (size_t d = 0; d < globalShape.size(); ++d) {
    int64_t index = 0, count = 1;
    for (const AxisRef &axis : sharding.dims[d].axes) {
      if (!contains(manualAxes, axis.name))
        continue;
      const int64_t axisSize = mesh.axisSize(axis.name);
      const int64_t size = axis.size(mesh);
      // A sub-axis "x":(pre)size is the middle factor of x = [pre, size, rest].
      const int64_t rest = axisSize / (axis.pre() * size);
      const int64_t coordinate = (coordinates[*mesh.axisIndex(axis.name)] / rest) % size;
      index = index * size + coordinate;
      count *= size;
    }
    if (globalShape[d] % count != 0)
      fail(pointer, "dimension size " + std::to_string(globalShape[d]) +
                        " is not divisible by the manual axes size " + std::to_string(count));
    const int64_t local = globalShape[d] / count;
    shard.index.push_back(index);
    shard.offsets.push_back(index * local);
    shard.shape.push_back(local);
  }
  return shard;
}

const std::string &meshNameOf(const ManualComputationAttrs &attrs) {
  return attrs.inShardings.empty() ? attrs.outShardings.front().meshName
                                   : attrs.inShardings.front().meshName;
}

/// The devices that differ from `device` only on the manual axes of this op
/// that `sharding` lists as unreduced: their values sum to the global one.
std::vector<int64_t> unreducedPeers(const DeviceGrid &grid, int64_t device,
                                    const TensorSharding &sharding,
                                    const std::vector<std::string> &manualAxes) {
  const Mesh &mesh = *grid.mesh();
  std::vector<int64_t> peers{device};
  for (const AxisRef &axis : sharding.unreduced) {
    if (!contains(manualAxes, axis.name))
      continue;
    const size_t index = *mesh.axisIndex(axis.name);
    std::vector<int64_t> more;
    for (int64_t peer : peers)
      for (int64_t c = 0; c < mesh.axes[index].size; ++c) {
        std::vector<int64_t> coordinates = grid.coordinates(peer);
        coordinates[index] = c;
        more.push_back(grid.deviceAt(coordinates));
      }
    std::sort(more.begin(), more.end());
    more.erase(std::unique(more.begin(), more.end()), more.end());
    peers = std::move(more);
  }
  return peers;
}

} // namespace

DeviceGrid manualGrid(const Graph &graph, const Op &op, const DeviceGrid &outer) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  const Mesh *mesh = graph.findMesh(meshNameOf(attrs));
  if (!mesh)
    fail(op.pointer, "unknown mesh \"" + meshNameOf(attrs) + "\"");
  return outer.refine(*mesh, attrs.manualAxes, op.pointer);
}

std::vector<PerDevice> sliceManualOperands(const Op &op, const DeviceGrid &inner,
                                           const std::vector<const PerDevice *> &operands) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  const int64_t perParent = inner.devicesPerParent();
  std::vector<PerDevice> arguments;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string pointer = joinPointer(joinPointer(op.pointer, "in_shardings"), i);
    PerDevice local(inner.size());
    for (int64_t device = 0; device < inner.size(); ++device) {
      const Literal &whole = (*operands[i])[device / perParent];
      Shard shard = shardOf(attrs.inShardings[i], whole.shape(), inner.coordinates(device),
                            *inner.mesh(), attrs.manualAxes, pointer);
      local[device] = extractBlock(whole, shard.offsets, shard.shape);
    }
    arguments.push_back(std::move(local));
  }
  return arguments;
}

std::vector<PerDevice> assembleManualResults(const Graph &graph, const Op &op,
                                             const DeviceGrid &outer, const DeviceGrid &inner,
                                             const std::vector<PerDevice> &bodyResults,
                                             std::optional<ElementType> elementType) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  const Mesh &mesh = *inner.mesh();
  const int64_t perParent = inner.devicesPerParent();
  std::vector<PerDevice> results;
  for (size_t j = 0; j < op.results.size(); ++j) {
    const std::string pointer = joinPointer(joinPointer(op.pointer, "out_shardings"), j);
    const TensorSharding &sharding = attrs.outShardings[j];
    TensorType globalType = graph.type(op.results[j]);
    if (elementType)
      globalType.elementType = *elementType;
    PerDevice assembled(outer.size());
    for (int64_t parent = 0; parent < outer.size(); ++parent) {
      Literal whole(globalType);
      // Children come in row-major order over the manual axes, so the first
      // one to hold a block is the one at coordinate 0 on every manual axis
      // that does not shard a dim (replicated or unreduced).
      std::set<std::vector<int64_t>> placed;
      for (int64_t device = parent * perParent; device < (parent + 1) * perParent; ++device) {
        Shard shard = shardOf(sharding, globalType.shape, inner.coordinates(device), mesh,
                              attrs.manualAxes, pointer);
        if (!placed.insert(shard.index).second)
          continue;
        std::vector<const Literal *> partials;
        for (int64_t peer : unreducedPeers(inner, device, sharding, attrs.manualAxes)) {
          partials.push_back(&bodyResults[j][peer]);
          const TensorType localType{globalType.elementType, shard.shape};
          if (partials.back()->type() != localType)
            fail(pointer, "the body returns " + printType(partials.back()->type()) +
                              " but this out_sharding of " + printType(globalType) +
                              " needs local shards of " + printType(localType));
        }
        insertBlock(whole,
                    partials.size() == 1 ? *partials.front()
                                         : combineElementwise(partials, Reducer::Add),
                    shard.offsets);
      }
      assembled[parent] = std::move(whole);
    }
    results.push_back(std::move(assembled));
  }
  return results;
}

int64_t unreducedManualCount(const Graph &graph, const Op &op, size_t result) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  const Mesh *mesh = graph.findMesh(meshNameOf(attrs));
  int64_t count = 1;
  for (const AxisRef &axis : attrs.outShardings[result].unreduced)
    if (mesh && contains(attrs.manualAxes, axis.name))
      count *= mesh->axisSize(axis.name);
  return count;
}

bool manualComputationIsEmpty(const Op &op) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  return attrs.inShardings.empty() && attrs.outShardings.empty();
}

std::vector<PerDevice> evalManualComputation(const Graph &graph, const Op &op,
                                             const DeviceGrid &outer,
                                             const std::vector<const PerDevice *> &operands,
                                             const BodyRunner &runBody) {
  checkManualComputation(op, operands.size());
  if (manualComputationIsEmpty(op))
    return {}; // nothing goes in or out, so nothing the body does is observable
  const DeviceGrid inner = manualGrid(graph, op, outer);
  std::vector<PerDevice> bodyResults =
      runBody(*op.body(), inner, sliceManualOperands(op, inner, operands));
  return assembleManualResults(graph, op, outer, inner, bodyResults);
}

void checkManualComputation(const Op &op, size_t numOperands) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  if (attrs.inShardings.size() != numOperands || attrs.outShardings.size() != op.results.size())
    fail(op.pointer, "manual_computation needs one in_sharding per operand and one "
                     "out_sharding per result");
}

} // namespace shardgen::interp
