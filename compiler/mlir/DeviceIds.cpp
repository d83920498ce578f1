#include "compiler/mlir/DeviceIds.h"

#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/StepBuilder.h"

namespace shardgen::mlir {

namespace {

/// A device id op: no operands, one `tensor<ui32>` result.
void checkForm(const Operation &op) {
  if (!op.operands.empty() || op.results.size() != 1 || !op.regions.empty())
    fail(op.loc.str(), "'" + op.name + "' takes no operands and gives one result");
  if (op.resultTypes.size() != 1 || op.resultTypes[0].text != "tensor<ui32>")
    fail(op.loc.str(),
         "'" + op.name + "' gives a tensor<ui32>, got " +
             (op.resultTypes.empty() ? std::string("no type") : op.resultTypes[0].text));
}

} // namespace

int64_t deviceIdTableSize(const Mesh &mesh) {
  return mesh.permutesDevices() ? static_cast<int64_t>(mesh.deviceIds.size()) : 0;
}

std::vector<Operation> decomposePartitionId(const Operation &partitionId, const Mesh &mesh) {
  checkForm(partitionId);
  StepBuilder b(partitionId, {});
  // Row-major: the last axis varies fastest.
  std::optional<Val> position;
  int64_t stride = 1;
  for (auto axis = mesh.axes.rbegin(); axis != mesh.axes.rend(); ++axis) {
    if (axis->size > 1) {
      Attribute name = makeAttribute(Attribute::Kind::String, partitionId.loc, axis->name);
      Val index = b.convert(b.op("shardgen.axis_index", {}, ElementType::I32, {{"axis", name}}),
                            ElementType::UI32);
      Val term = stride == 1 ? index : b.mul(index, b.integer(stride, ElementType::UI32));
      position = position ? b.add(term, *position) : term;
    }
    stride *= axis->size;
  }
  Val id = position ? *position : b.integer(0, ElementType::UI32);
  if (deviceIdTableSize(mesh) > 0) {
    Literal table(TensorType{ElementType::UI32, {static_cast<int64_t>(mesh.deviceIds.size())}});
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
      table.setInt(static_cast<int64_t>(i), mesh.deviceIds[i]);
    Attribute sizes = makeAttribute(Attribute::Kind::Array, partitionId.loc);
    Attribute one = makeAttribute(Attribute::Kind::Integer, partitionId.loc, "1");
    one.integer = 1;
    sizes.elements.push_back(one);
    Val entry =
        b.op("dynamic_slice", {b.literal(std::move(table)), b.convert(id, ElementType::I32)},
             TensorType{ElementType::UI32, {1}}, {{"slice_sizes", sizes}});
    id = b.op("reshape", {entry}, ElementType::UI32);
  }
  return b.finish(id);
}

std::vector<Operation> decomposeReplicaId(const Operation &replicaId) {
  checkForm(replicaId);
  StepBuilder b(replicaId, {});
  return b.finish(b.integer(0, ElementType::UI32));
}

} // namespace shardgen::mlir
