#pragma once
// Writing a generated program as a self-contained CMake project folder.

#include <string>

#include "compiler/codegen/CodeGenerator.h"

namespace shardgen {

/// Writes into `dir` (created if needed): <name>.cpp, <name>.h,
/// <name>_host.cpp, CMakeLists.txt, kernels/*.h and runtime/ (the runtime's
/// headers and threads backend); for a program generated with
/// AotOptions::mpi also <name>_mpi.cpp and runtime/mpi/ (the MPI backend).
/// Throws std::filesystem::filesystem_error.
void writeAotProject(const std::string &dir, const GeneratedProgram &generated);

} // namespace shardgen
