// The LLVM side's emitLlvmModule: the clang side (libshardgen-jit-clang.so,
// beside the module holding this code, found as ModuleLoading.h says) is
// loaded at the first compile that misses the cache, so a run whose code is
// cached maps and relocates libLLVM only. A program linking both sides in
// (shardgen_jit_llvm) takes the clang side from itself.
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitBackend.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/jit/ModuleLoading.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

// Defined when the program links the clang side in (ClangFrontendEntry.cpp).
extern "C" __attribute__((weak)) const shardgen::jit::ClangFrontend *shardgen_jit_clang_frontend();

namespace shardgen::jit {
namespace {

const ClangFrontend &loadClang() {
  const ClangFrontend *frontend = nullptr;
  std::string where = "linked into this program";
  if (shardgen_jit_clang_frontend) {
    frontend = shardgen_jit_clang_frontend();
  } else {
    std::filesystem::path path = ownFolder() / kClangModuleFileName;
    where = path.string();
    frontend = reinterpret_cast<ClangEntry *>(loadModuleEntry(path, kClangEntryName))();
  }
  if (!frontend || frontend->abi != kBackendAbi)
    throw JitError("the JIT's clang module " + where + " belongs to another build of shardgen", "");
  return *frontend;
}

} // namespace

std::unique_ptr<llvm::Module> emitLlvmModule(const std::string &source, const std::string &fileName,
                                             const JitOptions &options,
                                             llvm::LLVMContext &context) {
  static const ClangFrontend &frontend = loadClang(); // a failure is thrown again next time
  return frontend.emitLlvmModule(source, fileName, options, context);
}

} // namespace shardgen::jit
