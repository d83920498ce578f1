// C++ source -> optimized LLVM IR, through clang's library. Kept apart from
// the ORC side so each of the two LLVM-heavy files parses only the headers it
// needs.
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
/// included. Throws JitError carrying clang's diagnostics on failure.
std::unique_ptr<llvm::Module> emitLlvmModule(const std::string &source, const std::string &fileName,
                                             const JitOptions &options, llvm::LLVMContext &context);

} // namespace jit
} // namespace shardgen
