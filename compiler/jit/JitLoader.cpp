// The JIT's public functions (JitCompiler.h) on the host side: they load the
// LLVM side, libshardgen-jit.so, on first use and call into it
// (JitBackend.h), so a process that compiles nothing never loads clang and
// LLVM.
//
// The module is code this process runs, so it is found only next to the file
// holding this code (ModuleLoading.h: the executable as the kernel names it,
// never argv[0], PATH, LD_LIBRARY_PATH or the working directory, or the
// shared library it was linked into, an embedder's such as a Python
// module). Two places are tried, in order: that folder itself (a build
// tree, an embedder's package), then the installed layout,
// <prefix>/<libdir>/shardgen/ seen from <prefix>/<bindir>/.
#include "compiler/ir/Progress.h"
#include "compiler/jit/JitBackend.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/jit/ModuleLoading.h"

#include <filesystem>
#include <string>
#include <system_error>

#include "compiler/ir/InputError.h"

#ifndef SHARDGEN_JIT_MODULE_FROM_BINDIR
#define SHARDGEN_JIT_MODULE_FROM_BINDIR "../lib/shardgen"
#endif

// Defined when the program links the LLVM side in (JitBackendEntry.cpp);
// null otherwise.
extern "C" __attribute__((weak)) const shardgen::jit::Backend *shardgen_jit_backend();

namespace shardgen {
namespace jit {
namespace {

/// The table, checked to be of this build's layout.
const Backend &checked(const Backend *backend, const std::string &where) {
  if (!backend || backend->abi != kBackendAbi || backend->optionsSize != sizeof(JitOptions) ||
      backend->sourceSize != sizeof(JitSource))
    throw InputError("shardgen",
                     "the JIT module " + where + " belongs to another build of shardgen");
  return *backend;
}

const Backend &loadBackend() {
  if (shardgen_jit_backend)
    return checked(shardgen_jit_backend(), "linked into this program");
  std::filesystem::path folder = ownFolder();
  const std::filesystem::path candidates[] = {
      folder / kModuleFileName,
      (folder / SHARDGEN_JIT_MODULE_FROM_BINDIR / kModuleFileName).lexically_normal()};
  std::string tried;
  for (const std::filesystem::path &path : candidates) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
      tried += (tried.empty() ? "" : ", ") + path.string();
      continue;
    }
    // Its own dependencies (libLLVM) are found as the executable's are.
    auto *entry = reinterpret_cast<BackendEntry *>(loadModuleEntry(path, kBackendEntryName));
    return checked(entry(), path.string());
  }
  // Not a bug in shardgen: a binary copied away from its build tree or
  // installation (exit 1 with what to do, not an internal error).
  throw InputError("shardgen", "cannot find the JIT module (shardgen's clang and LLVM part) at " +
                                   tried +
                                   ": run shardgen from its build tree or where `cmake --install` "
                                   "put it, not a copy of the binary alone");
}

/// Loaded once per process; a failure is thrown again at the next use.
const Backend &backend() {
  static const Backend &loaded = loadBackend();
  return loaded;
}

} // namespace
} // namespace jit

std::unique_ptr<JitModule> compileCppUnits(const std::vector<JitSource> &units,
                                           const JitOptions &options) {
  reportProgress(units.size() == 1
                     ? std::string("parsing and optimizing C++ (clang)")
                     : "compiling " + std::to_string(units.size()) + " C++ files (clang)",
                 0, 0);
  return jit::backend().compileCppUnits(units, options);
}

std::unique_ptr<JitModule> compileCpp(const std::string &source, const std::string &fileName,
                                      const JitOptions &options) {
  return compileCppUnits({JitSource{fileName, source}}, options);
}

std::vector<std::string> linkerNamesOf(const std::string &prelude,
                                       const std::vector<std::string> &functions,
                                       const JitOptions &options) {
  return jit::backend().linkerNamesOf(prelude, functions, options);
}

std::string hostCpuName() { return jit::backend().hostCpuName(); }

} // namespace shardgen
