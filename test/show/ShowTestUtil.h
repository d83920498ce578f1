#pragma once
// Meshes and types for the show tests.

#include "compiler/ir/Mesh.h"
#include "compiler/ir/TensorType.h"

namespace shardgen::show::test {

inline Mesh makeMesh(std::vector<MeshAxis> axes, std::vector<int64_t> ids = {}) {
  Mesh mesh;
  mesh.name = "mesh";
  mesh.axes = std::move(axes);
  mesh.deviceIds = std::move(ids);
  return mesh;
}

inline TensorType f32(Shape shape) { return TensorType{ElementType::F32, std::move(shape)}; }

} // namespace shardgen::show::test
