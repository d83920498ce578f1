// The command line the JIT gives clang, as text: the clang side builds its
// invocation from it and the compile cache hashes it into its keys, so it
// needs no LLVM (host side, compiled into both modules as they need it).
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitCompiler.h"

namespace shardgen::jit {

std::vector<std::string> driverArguments(const std::string &fileName, const JitOptions &options) {
  std::vector<std::string> args = {
      SHARDGEN_CLANG_BINARY, "-c", "-x", "c++", "-std=c++20",
      "-O" + std::to_string(options.optLevel),
      // PIC: external data is then reached through the GOT, so host symbols
      // anywhere in the address space stay in reach of JIT-ed code.
      "-fPIC", "-fno-color-diagnostics", "-nostdinc", "-nostdinc++", "-isystem", kSystemIncludeDir,
      // Some virtual CPUs report avx10.1-256 without avx10.1-512; clang then
      // warns on every compile (clang++ -march=native too) about the CPU,
      // not about the program.
      "-Wno-invalid-feature-combination"};
  for (const auto &dir : options.includeDirs)
    args.push_back("-I" + dir);
  for (const auto &define : options.defines)
    args.push_back("-D" + define);
  args.push_back(fileName);
  return args;
}

} // namespace shardgen::jit
