#pragma once
// C++ generation from a partitioned program. The device code is one
// translation unit built from templates/program.cpp.in and the kernel
// library templates/kernels/; it needs only "shardgen/runtime.h". Its entry
// point, extern "C" <symbol>_device(const DeviceContext *, inputs, outputs,
// int32_t globalTensors), runs one device's part: with globalTensors, on the
// whole tensors (scatter by the input layouts, gather by the output
// layouts), else on the device's own pieces.
//
// Output is deterministic: the same program gives byte-identical text.

#include <string>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

/// How `shardgen compile` names the program and which backends it serves.
struct AotOptions {
  std::string name; // the program's C++ name; "" = the graph name as an identifier
  bool mpi = false; // also the MPI call styles (<name>_mpi.cpp) and runtime sources
};

struct GeneratedProgram {
  std::string name;       // C identifier of the graph name ("mlp") or AotOptions::name
  std::string symbol;     // prefix of the extern "C" entry point ("shardgen_mlp")
  std::string source;     // the device program: <name>.cpp
  std::string header;     // the application's API: <name>.h (AOT)
  std::string hostSource; // meshes and launching for that API: <name>_host.cpp (AOT)
  std::string cmakeLists; // builds all of it as a library (AOT)
  std::string mpiSource;  // the MPI call styles: <name>_mpi.cpp (AOT with AotOptions::mpi)
};

/// Generates the program. Throws GraphError (at the op) for what code
/// generation does not support.
GeneratedProgram generateProgram(const SpmdProgram &program, const AotOptions &options = {});

/// The entry point's name for a generated program.
inline std::string deviceEntryPoint(const GeneratedProgram &program) {
  return program.symbol + "_device";
}

} // namespace shardgen
