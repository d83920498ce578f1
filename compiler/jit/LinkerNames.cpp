// linkerNamesOf: asks clang how it names functions declared by a header, by
// compiling their addresses into an array and reading the array back from
// the IR (no code generation, no linking). With a cache folder the answer
// is kept there as an entry without an object, so a process whose generated
// code is cached runs no clang at all.
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitBackend.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/jit/ObjectCache.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace shardgen::jit {
namespace {

/// The probe's file name: with a '-', never the name of a generated
/// program's file, so its cache key is never that of compiled code.
constexpr const char *kProbeFile = "linker-names-probe.cpp";

std::vector<std::string> probe(const std::string &source, size_t count, const JitOptions &options) {
  static constexpr const char *kArray = "shardgen_jit_linker_names";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = emitLlvmModule(source, kProbeFile, options, context);
  const llvm::GlobalVariable *array = module->getNamedGlobal(kArray);
  const auto *elements =
      array ? llvm::dyn_cast_or_null<llvm::ConstantArray>(array->getInitializer()) : nullptr;
  if (!elements || elements->getNumOperands() != count)
    throw JitError("cannot read the linker names of " + std::to_string(count) +
                       " functions back from the compiled probe",
                   "");
  std::vector<std::string> names;
  for (const llvm::Use &element : elements->operands()) {
    const auto *function = llvm::dyn_cast<llvm::Function>(element->stripPointerCasts());
    if (!function)
      throw JitError("a linker-name probe entry is not a function", "");
    names.push_back(function->getName().str());
  }
  return names;
}

} // namespace

std::vector<std::string> linkerNamesOf(const std::string &prelude,
                                       const std::vector<std::string> &functions,
                                       const JitOptions &options) {
  std::string source = prelude + "\nextern \"C\" void *const shardgen_jit_linker_names[] = {\n";
  for (const std::string &function : functions)
    source += "  reinterpret_cast<void *>(" + function + "),\n";
  source += "};\n";
  JitOptions probeOptions = options;
  probeOptions.optLevel = 0;
  std::string key;
  std::unique_ptr<CacheFolder> cache;
  if (!options.cacheDir.empty()) {
    // Not said here when the folder is unfit: compiling says so.
    std::string problem;
    cache = CacheFolder::open(options.cacheDir, problem);
  }
  if (cache) {
    key = cacheKey(source, kProbeFile, probeOptions);
    std::string problem; // a damaged entry is removed; the probe runs again
    std::optional<CachedObject> cached = cache->read(key, problem);
    if (!problem.empty() && options.cacheWarning)
      options.cacheWarning(cache->damagedEntryWarning(key, problem));
    if (cached && cached->object.empty() && cached->definedSymbols.size() == functions.size())
      return cached->definedSymbols;
  }
  std::vector<std::string> names = probe(source, functions.size(), probeOptions);
  if (cache)
    cache->write(key, CachedObject{names, ""});
  return names;
}

} // namespace shardgen::jit
