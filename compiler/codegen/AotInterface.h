#pragma once
// What a compiled program's header tells the application about the program
// beyond its call styles: the mesh, and for each input and output its layout
// and every device's piece (shape and offset), as constexpr C++ so that an
// application never retypes a mesh or a sharding. Internal to
// compiler/codegen (generateProgram fills templates/program.h.in with it).

#include <string>
#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen::codegen {

/// The header's mesh section: kMeshAxes, devicePosition(), deviceIdAt().
std::string meshDeclarations(const Mesh &mesh);

/// The header's layout section: kMaxRank, Layout, Piece, kInputLayouts,
/// kOutputLayouts, inputPiece() and outputPiece(); piece lookups are
/// computed from the position (one branch per distinct piece shape), never
/// tabulated per device.
std::string layoutDeclarations(const SpmdProgram &program, const std::vector<SpmdValueId> &inputs,
                               const std::vector<SpmdValueId> &outputs);

} // namespace shardgen::codegen
