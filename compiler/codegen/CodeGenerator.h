#pragma once
// C++ generation from a partitioned program. The device code is a
// translation unit built from templates/program.cpp.in and the kernel
// library templates/kernels/ (and, for a large program, more units from
// templates/program_part.cpp.in); it needs only "shardgen/runtime.h". Its entry
// point, extern "C" <symbol>_device(const DeviceContext *, inputs, outputs,
// int32_t globalTensors), runs one device's part: with globalTensors, on the
// whole tensors (scatter by the input layouts, gather by the output
// layouts), else on the device's own pieces.
//
// Output is deterministic: the same program gives byte-identical text.

#include <string>
#include <utility>
#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

/// How large the device code's functions and files may grow (DeviceUnits.h):
/// the defaults suit every program; tests lower them to split small ones.
struct CodeSplit {
  /// Statements (step calls, input copies) per generated function: rows of
  /// its table of kernel calls; large enough that no compiler unrolls the
  /// loop over them.
  int64_t statementsPerPart = 1024;
  /// Bytes of code per file: a larger program is split into several files
  /// that compile in parallel...
  int64_t bytesPerUnit = 256 * 1024;
  /// ...but no more than this many besides the main file.
  int64_t maxUnits = 16;
};

/// How `shardgen compile` names the program and which backends it serves.
struct AotOptions {
  std::string name; // the program's C++ name; "" = the graph name as an identifier
  bool mpi = false; // also the MPI call styles (<name>_mpi.cpp) and runtime sources
  CodeSplit split;  // function and file sizes of the device code
};

struct GeneratedProgram {
  std::string name;   // C identifier of the graph name ("mlp") or AotOptions::name
  std::string symbol; // prefix of the extern "C" entry point ("shardgen_mlp")
  std::string source; // the device program: <name>.cpp
  /// More of the device program in a large one: <name>_part1.cpp, ... (the
  /// parts of its functions that <name>.cpp calls).
  std::vector<std::string> deviceParts;
  std::string header;     // the application's API: <name>.h (AOT)
  std::string hostSource; // meshes and launching for that API: <name>_host.cpp (AOT)
  std::string cmakeLists; // builds all of it as a library (AOT)
  std::string mpiSource;  // the MPI call styles: <name>_mpi.cpp (AOT with AotOptions::mpi)
};

/// Generates the program. Throws GraphError (at the op) for what code
/// generation does not support.
GeneratedProgram generateProgram(const SpmdProgram &program, const AotOptions &options = {});

/// The device program's files in order, name and text: <name>.cpp, then
/// <name>_part1.cpp, ...
std::vector<std::pair<std::string, std::string>> deviceSources(const GeneratedProgram &program);

/// The entry point's name for a generated program.
inline std::string deviceEntryPoint(const GeneratedProgram &program) {
  return program.symbol + "_device";
}

} // namespace shardgen
