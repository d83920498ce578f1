// C++ source -> optimized LLVM IR, through clang's library. Kept apart from
// the ORC side so each of the two LLVM-heavy files parses only the headers it
// needs, and built as a module of its own (libshardgen-jit-clang.so) so a
// run whose code is cached never loads libclang-cpp.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace shardgen {
struct JitOptions;

namespace jit {

/// The in-memory directory the main file lives in: relative names resolve
/// here, and it holds nothing but the main file and relative virtual files.
inline constexpr const char *kMainFileDir = "/shardgen-jit/src";
/// The in-memory directory of the JIT's <stddef.h> and <stdint.h>.
inline constexpr const char *kSystemIncludeDir = "/shardgen-jit/include";

/// The freestanding C headers the JIT offers, path -> contents.
const std::vector<std::pair<std::string, std::string>> &freestandingHeaders();

/// The command line of an ordinary `clang -c`, minus every include folder of
/// the installation: -nostdinc drops the system and clang's own headers, so
/// includes resolve only to the in-memory files. (The host CPU and its
/// features are set on the invocation afterwards.)
std::vector<std::string> driverArguments(const std::string &fileName, const JitOptions &options);

/// Compiles `source` for the host CPU at options.optLevel, IR optimizations
/// included. Throws JitError carrying clang's diagnostics on failure. (On
/// the LLVM side this loads the clang side, libshardgen-jit-clang.so, at
/// its first call: ClangLoader.cpp; a process whose programs all come from
/// the compile cache never loads clang.)
std::unique_ptr<llvm::Module> emitLlvmModule(const std::string &source, const std::string &fileName,
                                             const JitOptions &options, llvm::LLVMContext &context);

/// The clang side's implementation of emitLlvmModule (CppFrontend.cpp).
std::unique_ptr<llvm::Module> clangEmitLlvmModule(const std::string &source,
                                                  const std::string &fileName,
                                                  const JitOptions &options,
                                                  llvm::LLVMContext &context);

/// What the clang side hands the LLVM side: its one entry point.
struct ClangFrontend {
  int abi; // kBackendAbi
  std::unique_ptr<llvm::Module> (*emitLlvmModule)(const std::string &source,
                                                  const std::string &fileName,
                                                  const JitOptions &options,
                                                  llvm::LLVMContext &context);
};

/// The clang side's file, beside libshardgen-jit.so, and its exported
/// function: extern "C" const ClangFrontend *NAME().
inline constexpr const char *kClangModuleFileName = "libshardgen-jit-clang.so";
inline constexpr const char *kClangEntryName = "shardgen_jit_clang_frontend";
using ClangEntry = const ClangFrontend *();

} // namespace jit
} // namespace shardgen
