#pragma once
// stablehlo.partition_id and stablehlo.replica_id, what JAX prints for
// `lax.axis_index` inside a shard_map over every mesh axis (the partition
// id divided by the axis's stride, modulo its size). In shardgen's model
// every device is a partition of one replica: inside a manual computation
// over every axis of its mesh (of size > 1) the partition id is the
// device's id at its row-major position in the mesh, made of the devices'
// axis_index ops; the replica id is 0.

#include <cstdint>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// The most operations decomposePartitionId gives (four per axis of size > 1,
/// at most 16 of them under the 2^16 devices a mesh may have, and the table
/// lookup): what the inlining budget counts for a partition_id.
inline constexpr uint64_t kMaxPartitionIdSteps = 4 * 16 + 8;

/// The most device-id table elements the partition_ids of one module may
/// make in all (each on a mesh whose device_ids are not the identity holds
/// the mesh's ids): a short file cannot make a table per op of a large mesh.
inline constexpr int64_t kMaxDeviceIdTableElements = int64_t(1) << 20;

/// The elements of the table decomposePartitionId makes on `mesh`: its
/// device count where device_ids are not the identity, else 0.
int64_t deviceIdTableSize(const Mesh &mesh);

/// The ops computing `partitionId`'s ui32 result on `mesh`'s devices: the
/// row-major position from each axis's `shardgen.axis_index`, then through
/// the mesh's device_ids where they are not the identity. The caller checks
/// that the enclosing manual computations are manual over every axis.
std::vector<Operation> decomposePartitionId(const Operation &partitionId, const Mesh &mesh);

/// `replicaId`'s result: the constant 0 (ui32).
std::vector<Operation> decomposeReplicaId(const Operation &replicaId);

} // namespace shardgen::mlir
