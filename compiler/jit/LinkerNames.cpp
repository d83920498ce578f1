// linkerNamesOf: asks clang how it names functions declared by a header, by
// compiling their addresses into an array and reading the array back from
// the IR (no code generation, no linking).
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitCompiler.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace shardgen {

std::vector<std::string> linkerNamesOf(const std::string &prelude,
                                       const std::vector<std::string> &functions,
                                       const JitOptions &options) {
  static constexpr const char *kArray = "shardgen_jit_linker_names";
  std::string source = prelude + "\nextern \"C\" void *const " + kArray + "[] = {\n";
  for (const std::string &function : functions)
    source += "  reinterpret_cast<void *>(" + function + "),\n";
  source += "};\n";
  JitOptions probeOptions = options;
  probeOptions.optLevel = 0;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      jit::emitLlvmModule(source, "linker_names.cpp", probeOptions, context);
  const llvm::GlobalVariable *array = module->getNamedGlobal(kArray);
  const auto *elements =
      array ? llvm::dyn_cast_or_null<llvm::ConstantArray>(array->getInitializer()) : nullptr;
  if (!elements || elements->getNumOperands() != functions.size())
    throw JitError("cannot read the linker names of " + std::to_string(functions.size()) +
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

} // namespace shardgen
