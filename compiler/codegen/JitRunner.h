#pragma once
// Running a generated program in this process: its source is compiled by
// the in-process JIT (compiler/jit) with the kernel library and the
// runtime's device header as its only files, linked against an explicit
// table (the runtime's entry points, baseHostSymbols() and the custom-call
// functions the user registered), and its devices run on the runtime's
// threads backend, or on whatever a MeshLauncher runs them (a rank's
// devices under MPI: `run --backend mpi`).

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/ir/Literal.h"
#include "compiler/jit/JitCompiler.h"
#include "runtime/include/shardgen/custom_call.h"
#include "runtime/include/shardgen/launch.h"

namespace shardgen {

/// The functions implementing custom_call targets, by call_target_name.
using CustomCallFunctions = std::map<std::string, shardgen_custom_call_fn>;

/// JitOptions for generated code: the embedded kernel library and runtime
/// headers as its files ("kernels/kernels.h", "shardgen/runtime.h"), and as
/// its symbols the runtime's entry points, baseHostSymbols() and
/// `customCalls`, nothing else. `cacheDir` (JitOptions::cacheDir, "" for
/// none) also keeps the runtime's linker names, so a process whose program
/// is cached runs no clang; `cacheWarning` (JitOptions::cacheWarning) hears
/// of damaged entries there too.
JitOptions
generatedCodeJitOptions(const CustomCallFunctions &customCalls = {},
                        const std::string &cacheDir = "",
                        const std::function<void(const std::string &)> &cacheWarning = {});

/// Runs a device function on every device of a mesh (runtime::launch, or
/// runtime::launchMpi for this rank's devices).
using MeshLauncher =
    std::function<void(const runtime::DeviceMesh &, const runtime::DeviceFunction &)>;

/// Runs every device of the mesh on this process' threads (runtime::launch).
MeshLauncher threadsLauncher(const runtime::LaunchOptions &options = {});

class CompiledProgram {
public:
  /// Compiles `generated` (made from `program`, which must outlive this).
  /// Throws JitError when the generated code does not compile.
  CompiledProgram(const SpmdProgram &program, const GeneratedProgram &generated,
                  const JitOptions &options = generatedCodeJitOptions());

  /// Runs on whole tensors: one Literal per program input, of its global
  /// type; returns the outputs. Rethrows a device's exception (RunTimeout
  /// when `options` sets a timeout the run exceeds).
  std::vector<Literal> run(const std::vector<Literal> &inputs,
                           const runtime::LaunchOptions &options = {}) const;
  /// As above on the devices `launcher` runs; an output's bytes are written
  /// where those devices own its pieces and stay zero elsewhere (under MPI,
  /// rank 0 merges every rank's: runtime::mergeDisjointToRoot).
  std::vector<Literal> run(const std::vector<Literal> &inputs, const MeshLauncher &launcher) const;
  /// The same on the caller's memory, nothing copied: inputs[i] holds input
  /// i whole (its global type, dense and row-major, aligned for its element
  /// type), outputs[j] receives output j whole (every element is written).
  void run(const std::vector<const void *> &inputs, const std::vector<void *> &outputs,
           const MeshLauncher &launcher) const;
  /// As run, and `shards[j][p]` receives device position p's local buffer of
  /// output j (what the per-device call style returns; `run --shards`).
  std::vector<Literal> run(const std::vector<Literal> &inputs,
                           const runtime::LaunchOptions &options,
                           std::vector<std::vector<Literal>> &shards) const;

  /// The per-device call style (what the generated runRankShards does):
  /// device position p reads inputShards[p][i], its piece of input i (of
  /// localBufferType), and writes its piece of output j to
  /// outputShards[p][j]. Only the positions `launcher` runs are read. The
  /// steps compute the outputs straight into their pieces unless pieces of
  /// two positions overlap (one buffer for a replicated output): then they
  /// are copied out after the steps.
  void runShards(const std::vector<std::vector<const void *>> &inputShards,
                 const std::vector<std::vector<void *>> &outputShards,
                 const MeshLauncher &launcher) const;

  const JitModule &module() const { return *module_; }

private:
  std::vector<Literal> runImpl(const std::vector<Literal> &inputs, const MeshLauncher &launcher,
                               std::vector<std::vector<Literal>> *shards) const;
  void runImpl(const std::vector<const void *> &inputs, const std::vector<void *> &outputs,
               const MeshLauncher &launcher, std::vector<std::vector<Literal>> *shards) const;

  runtime::DeviceMesh deviceMesh() const;

  const SpmdProgram &program_;
  std::unique_ptr<JitModule> module_;
  using Entry = void(const void *device, const void *const *inputs, void *const *outputs,
                     int32_t globalTensors);
  Entry *entry_ = nullptr;
};

} // namespace shardgen
