#pragma once
// stablehlo.partition_id and stablehlo.replica_id, what JAX prints for
// `lax.axis_index` inside a shard_map over every mesh axis (the partition
// id divided by the axis's stride, modulo its size). In shardgen's model
// every device is a partition of one replica: inside a manual computation
// over every axis of its mesh (of size > 1) the partition id is the
// device's id at its row-major position in the mesh, made of the devices'
// axis_index ops; the replica id is 0.

#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// The ops computing `partitionId`'s ui32 result on `mesh`'s devices: the
/// row-major position from each axis's `shardgen.axis_index`, then through
/// the mesh's device_ids where they are not the identity. The caller checks
/// that the enclosing manual computations are manual over every axis.
std::vector<Operation> decomposePartitionId(const Operation &partitionId, const Mesh &mesh);

/// `replicaId`'s result: the constant 0 (ui32).
std::vector<Operation> decomposeReplicaId(const Operation &replicaId);

} // namespace shardgen::mlir
