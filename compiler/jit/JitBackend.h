// The JIT's LLVM side as the rest of shardgen reaches it. LLVM lives in a
// shared module, libshardgen-jit.so, which JitLoader.cpp loads on first use
// (and which loads clang, libshardgen-jit-clang.so, only for a compile the
// cache does not answer: ClangLoader.cpp): a command that compiles nothing
// (check, propagate, compile, ...) never loads them (~70 MB, tens of
// milliseconds). The module exports one C function returning this table; a
// program may instead link the LLVM side in (shardgen_jit_llvm: tests,
// benches, embedders), and the loader then takes the table from the program
// itself.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "compiler/jit/JitCompiler.h"

namespace shardgen::jit {

/// Bump when Backend or a type it passes (JitCompiler.h) changes layout.
inline constexpr int kBackendAbi = 2;

/// The module's file name, next to the shardgen binary in a build tree and
/// in <libdir>/shardgen/ once installed.
inline constexpr const char *kModuleFileName = "libshardgen-jit.so";

/// What the LLVM side offers: the functions of JitCompiler.h that need
/// clang or LLVM. The sizes guard against a module of another build.
struct Backend {
  int abi;
  size_t optionsSize;
  size_t sourceSize;
  std::unique_ptr<JitModule> (*compileCppUnits)(const std::vector<JitSource> &units,
                                                const JitOptions &options);
  std::vector<std::string> (*linkerNamesOf)(const std::string &prelude,
                                            const std::vector<std::string> &functions,
                                            const JitOptions &options);
  std::string (*hostCpuName)();
};

/// The name of the module's entry point: extern "C" const Backend *NAME().
inline constexpr const char *kBackendEntryName = "shardgen_jit_backend";
using BackendEntry = const Backend *();

/// The LLVM side's implementations (JitModule.cpp, LinkerNames.cpp,
/// HostTarget.cpp), as the table holds them.
std::unique_ptr<JitModule> compileCppUnits(const std::vector<JitSource> &units,
                                           const JitOptions &options);
std::vector<std::string> linkerNamesOf(const std::string &prelude,
                                       const std::vector<std::string> &functions,
                                       const JitOptions &options);

} // namespace shardgen::jit
