#pragma once
// Meshes and types the layout, manifest and reshard tests build by hand.

#include <utility>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/TensorType.h"

namespace shardgen::testing {

/// A mesh named "mesh" with `axes`.
inline Mesh makeMesh(std::vector<MeshAxis> axes) {
  Mesh mesh;
  mesh.name = "mesh";
  mesh.axes = std::move(axes);
  return mesh;
}

inline TensorType f32(Shape shape) { return TensorType{ElementType::F32, std::move(shape)}; }

} // namespace shardgen::testing
