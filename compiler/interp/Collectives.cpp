#include "compiler/interp/Collectives.h"

#include <algorithm>

#include "compiler/interp/KernelColumn.h"
#include "compiler/interp/Kernels.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::interp {
namespace {

/// The devices that differ from one device only in the coordinates of the
/// collective's axes, by position: row-major over the axes in listed order.
struct Group {
  std::vector<int64_t> members;
  int64_t position = 0; // of the device the group was built for
  int64_t size() const { return static_cast<int64_t>(members.size()); }
};

std::vector<size_t> manualAxisIndices(const DeviceGrid &grid, const std::vector<std::string> &axes,
                                      const Op &op) {
  std::vector<size_t> indices;
  for (const std::string &name : axes) {
    std::optional<size_t> axis = grid.mesh() ? grid.mesh()->axisIndex(name) : std::nullopt;
    if (!axis || !grid.isManual(*axis))
      fail(op.pointer, std::string(op.name()) + " names axis \"" + name +
                           "\", which is not a manual axis of an enclosing manual_computation");
    if (std::find(indices.begin(), indices.end(), *axis) != indices.end())
      fail(op.pointer, std::string(op.name()) + " names axis \"" + name + "\" twice");
    indices.push_back(*axis);
  }
  return indices;
}

Group groupOf(const DeviceGrid &grid, int64_t device, const std::vector<size_t> &axes) {
  const Mesh &mesh = *grid.mesh();
  const std::vector<int64_t> &own = grid.coordinates(device);
  Group group;
  int64_t size = 1;
  for (size_t axis : axes) {
    group.position = group.position * mesh.axes[axis].size + own[axis];
    size *= mesh.axes[axis].size;
  }
  std::vector<int64_t> coordinates = own;
  for (int64_t position = 0; position < size; ++position) {
    int64_t rest = position;
    for (size_t i = axes.size(); i-- > 0;) {
      coordinates[axes[i]] = rest % mesh.axes[axes[i]].size;
      rest /= mesh.axes[axes[i]].size;
    }
    group.members.push_back(grid.deviceAt(coordinates));
  }
  return group;
}

/// Calls fn(group) once per group, with position 0's view of the group.
template <typename Fn>
void forEachGroup(const DeviceGrid &grid, const std::vector<size_t> &axes, Fn &&fn) {
  for (int64_t device = 0; device < grid.size(); ++device) {
    Group group = groupOf(grid, device, axes);
    if (group.position == 0)
      fn(group);
  }
}

std::vector<const Literal *> valuesOf(const Group &group, const PerDevice &values) {
  std::vector<const Literal *> out;
  for (int64_t member : group.members)
    out.push_back(&values[member]);
  return out;
}

/// Chunk `index` of `count` equal chunks of `value` along `dimension`.
Literal chunk(const Literal &value, int64_t dimension, int64_t index, int64_t count) {
  Shape shape = value.shape();
  shape[dimension] /= count;
  std::vector<int64_t> offsets(shape.size(), 0);
  offsets[dimension] = index * shape[dimension];
  return extractBlock(value, offsets, shape);
}

void requireDimension(const Op &op, const Literal &value, int64_t dimension) {
  if (dimension < 0 || dimension >= value.type().rank())
    fail(op.pointer, std::string(op.name()) + " dimension " + std::to_string(dimension) +
                         " is out of range for rank " + std::to_string(value.type().rank()));
}

void requireDivisible(const Op &op, const Literal &value, int64_t dimension, int64_t groupSize) {
  requireDimension(op, value, dimension);
  if (value.shape()[dimension] % groupSize != 0)
    fail(op.pointer, std::string(op.name()) + " needs dimension " + std::to_string(dimension) +
                         " (size " + std::to_string(value.shape()[dimension]) +
                         ") to be divisible by the group size " + std::to_string(groupSize));
}

} // namespace

namespace kernels {
namespace {

/// The collective's grid, after checking it runs on one: a collective
/// cannot run on one device by itself.
const DeviceGrid &gridOf(const KernelInputs &in) {
  if (!in.onGrid())
    fail(in.op.pointer, std::string(in.op.name()) + " cannot run on one device by itself");
  return *in.grid;
}

/// The collective's results on every device, `fill(group, attrs, operand,
/// results)` writing those of each group over its axes.
template <typename Attrs, typename Fill>
std::vector<Literal> overGroups(const KernelInputs &in, Fill &&fill) {
  const DeviceGrid &grid = gridOf(in);
  const auto &attrs = in.op.attr<Attrs>();
  PerDevice results(grid.size());
  forEachGroup(grid, manualAxisIndices(grid, attrs.axes, in.op),
               [&](const Group &group) { fill(group, attrs, *in.deviceOperands[0], results); });
  return results;
}

} // namespace

std::vector<Literal> allReduceKernel(const KernelInputs &in) {
  return overGroups<AllReduceAttrs>(
      in, [&](const Group &group, const auto &attrs, const PerDevice &operand, PerDevice &results) {
        Literal sum = combineElementwise(valuesOf(group, operand), attrs.reducer);
        for (int64_t member : group.members)
          results[member] = sum;
      });
}

std::vector<Literal> allGatherKernel(const KernelInputs &in) {
  return overGroups<AllGatherAttrs>(
      in, [&](const Group &group, const auto &attrs, const PerDevice &operand, PerDevice &results) {
        requireDimension(in.op, operand[group.members[0]], attrs.dimension);
        Literal gathered = evalConcatenate(valuesOf(group, operand), attrs.dimension);
        for (int64_t member : group.members)
          results[member] = gathered;
      });
}

std::vector<Literal> reduceScatterKernel(const KernelInputs &in) {
  return overGroups<ReduceScatterAttrs>(
      in, [&](const Group &group, const auto &attrs, const PerDevice &operand, PerDevice &results) {
        Literal sum = combineElementwise(valuesOf(group, operand), attrs.reducer);
        requireDivisible(in.op, sum, attrs.dimension, group.size());
        for (int64_t k = 0; k < group.size(); ++k)
          results[group.members[k]] = chunk(sum, attrs.dimension, k, group.size());
      });
}

std::vector<Literal> allToAllKernel(const KernelInputs &in) {
  return overGroups<AllToAllAttrs>(
      in, [&](const Group &group, const auto &attrs, const PerDevice &operand, PerDevice &results) {
        const int64_t n = group.size();
        for (int64_t member : group.members) {
          requireDivisible(in.op, operand[member], attrs.splitDimension, n);
          requireDimension(in.op, operand[member], attrs.concatDimension);
        }
        // Position p receives chunk p of every source, in source position order.
        for (int64_t p = 0; p < n; ++p) {
          std::vector<Literal> received;
          for (int64_t source : group.members)
            received.push_back(chunk(operand[source], attrs.splitDimension, p, n));
          std::vector<const Literal *> pieces;
          for (const Literal &piece : received)
            pieces.push_back(&piece);
          results[group.members[p]] = evalConcatenate(pieces, attrs.concatDimension);
        }
      });
}

std::vector<Literal> collectivePermuteKernel(const KernelInputs &in) {
  return overGroups<CollectivePermuteAttrs>(
      in, [&](const Group &group, const auto &attrs, const PerDevice &operand, PerDevice &results) {
        const int64_t n = group.size();
        const int64_t shift = ((attrs.shift % n) + n) % n;
        for (int64_t p = 0; p < n; ++p)
          results[group.members[p]] = operand[group.members[(p - shift + n) % n]];
      });
}

std::vector<Literal> axisIndexKernel(const KernelInputs &in) {
  const DeviceGrid &grid = gridOf(in);
  const auto &attrs = in.op.attr<AxisIndexAttrs>();
  const size_t axis = manualAxisIndices(grid, {attrs.axis}, in.op).front();
  PerDevice results(grid.size());
  for (int64_t device = 0; device < grid.size(); ++device) {
    Literal index(TensorType{ElementType::I32, {}});
    index.as<int32_t>()[0] = static_cast<int32_t>(grid.coordinates(device)[axis]);
    results[device] = std::move(index);
  }
  return results;
}

} // namespace kernels

PerDevice evalCollective(const Op &op, const DeviceGrid &grid,
                         const std::vector<const PerDevice *> &operands) {
  if (!isCollective(op.kind))
    fail(op.pointer, std::string(op.name()) + " is not a collective");
  return kernels::runKernel(kernels::KernelInputs{nullptr, op, {}, nullptr, &grid, operands});
}

} // namespace shardgen::interp
