// The ORC side of the JIT: one LLJIT instance per compiled module.
#include "compiler/ir/Progress.h"
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/jit/ObjectCache.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <mutex>

namespace shardgen {
namespace {

void initializeNativeTargetOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

template <typename T> T orThrow(llvm::Expected<T> value, const std::string &what) {
  if (!value)
    throw JitError(what + ": " + llvm::toString(value.takeError()), "");
  return std::move(*value);
}

void orThrow(llvm::Error error, const std::string &what) {
  if (error)
    throw JitError(what + ": " + llvm::toString(std::move(error)), "");
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

llvm::CodeGenOptLevel codeGenOptLevel(int optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// The JITDylib LLJIT links every module against in place of the process's
/// symbols: exactly `hostSymbols`, with no generator behind it, so no other
/// symbol of the process (remove, system, the shardgen executable's own
/// functions, ...) can be reached by name.
llvm::orc::LLJITBuilderState::ProcessSymbolsJITDylibSetupFunction
explicitSymbolTable(const std::map<std::string, void *> &hostSymbols) {
  return [hostSymbols](llvm::orc::LLJIT &jit) -> llvm::Expected<llvm::orc::JITDylibSP> {
    auto &table = jit.getExecutionSession().createBareJITDylib("<host symbol table>");
    llvm::orc::SymbolMap map;
    for (const auto &[name, address] : hostSymbols)
      map[jit.mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                        llvm::JITSymbolFlags::Exported |
                                            llvm::JITSymbolFlags::Callable};
    if (llvm::Error error = table.define(llvm::orc::absoluteSymbols(std::move(map))))
      return error;
    return &table;
  };
}

/// The host target at `optLevel`, as the JIT and its code generator use it.
llvm::orc::JITTargetMachineBuilder hostTarget(int optLevel) {
  auto target =
      orThrow(llvm::orc::JITTargetMachineBuilder::detectHost(), "cannot target the host CPU");
  target.setCodeGenOptLevel(codeGenOptLevel(optLevel));
  target.setRelocationModel(llvm::Reloc::PIC_); // as the frontend's -fPIC
  return target;
}

/// One JIT per module: its own symbol namespace, so equal names in two
/// modules never clash, and its memory goes away with the module.
std::unique_ptr<llvm::orc::LLJIT> createJit(int optLevel,
                                            const std::map<std::string, void *> &hostSymbols) {
  return orThrow(llvm::orc::LLJITBuilder()
                     .setJITTargetMachineBuilder(hostTarget(optLevel))
                     .setProcessSymbolsJITDylibSetup(explicitSymbolTable(hostSymbols))
                     .create(),
                 "cannot create the JIT");
}

/// The module as a relocatable object for the host, by the code generator
/// LLJIT itself would use.
std::string compileToObject(llvm::Module &module, int optLevel, const std::string &fileName) {
  auto machine = orThrow(hostTarget(optLevel).createTargetMachine(),
                         "cannot create the code generator for '" + fileName + "'");
  llvm::orc::SimpleCompiler compile(*machine);
  std::unique_ptr<llvm::MemoryBuffer> object =
      orThrow(compile(module), "cannot generate code for '" + fileName + "'");
  return object->getBuffer().str();
}

/// Whether the module runs code at load or unload (static constructors,
/// destructors, atexit handlers). LLJIT's generic platform runs those only
/// for modules it compiled from IR, so such modules are never cached.
bool hasStaticInitialization(const llvm::Module &module) {
  for (const char *name : {"llvm.global_ctors", "llvm.global_dtors"})
    if (module.getNamedGlobal(name))
      return true;
  for (const char *name : {"__cxa_atexit", "atexit", "__dso_handle"})
    if (const llvm::GlobalValue *value = module.getNamedValue(name); value && !value->use_empty())
      return true;
  return false;
}

/// What LLJIT's generic platform defines for static initialization.
bool isPlatformSymbol(llvm::StringRef name) {
  return name == "__cxa_atexit" || name == "atexit" || name == "__dso_handle";
}

/// The symbols the module uses but neither defines nor finds in the table
/// (checked on the IR, so the message names them before any linking).
std::vector<std::string> symbolsOutsideTable(const llvm::Module &module,
                                             const std::map<std::string, void *> &hostSymbols) {
  std::vector<std::string> names;
  for (const llvm::GlobalValue &value : module.global_values()) {
    llvm::StringRef name = value.getName();
    if (!value.isDeclaration() || name.starts_with("llvm.") || isPlatformSymbol(name) ||
        hostSymbols.count(name.str()) || value.use_empty())
      continue;
    names.push_back(name.str());
  }
  return names;
}

std::string joined(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names)
    out += (out.empty() ? "" : ", ") + name;
  return out;
}

/// The symbols a module defines for the linker (what a lookup can ask for).
std::vector<std::string> definedSymbols(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclarationForLinker() && !value.hasLocalLinkage() &&
        !value.getName().starts_with("llvm."))
      names.push_back(value.getName().str());
  return names;
}

/// A compiled module on its way into the JIT: an object file, or the IR of a
/// module with static initialization (see hasStaticInitialization).
struct Compiled {
  jit::CachedObject object; // its defined symbols, and the object unless `ir`
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> ir;
  /// The module the object is generated from, until it is.
  std::unique_ptr<llvm::Module> objectSource;
};

/// Runs clang on `source` and checks that every symbol the module needs is
/// in the host table; the IR text goes to `irText` when options.keepIr.
Compiled compileFresh(const std::string &source, const std::string &fileName,
                      const JitOptions &options, std::string &irText) {
  Compiled compiled;
  compiled.context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module =
      jit::emitLlvmModule(source, fileName, options, *compiled.context);
  if (options.keepIr) {
    llvm::raw_string_ostream irStream(irText);
    module->print(irStream, nullptr);
  }
  if (std::vector<std::string> missing = symbolsOutsideTable(*module, options.hostSymbols);
      !missing.empty())
    throw JitError("cannot link '" + fileName +
                       "': it uses symbols that are not in the "
                       "JIT's symbol table: " +
                       joined(missing),
                   "");
  compiled.object.definedSymbols = definedSymbols(*module);
  if (hasStaticInitialization(*module))
    compiled.ir = std::move(module);
  else
    compiled.objectSource = std::move(module);
  return compiled;
}

/// Generates the machine code now rather than at the first lookup, so link
/// errors (an undefined function, ...) surface from compileCpp. Returns the
/// lookup's error; the details (which symbols are missing) reach the session's
/// error reporter.
llvm::Error materializeAll(llvm::orc::LLJIT &jit, const std::vector<std::string> &symbols) {
  llvm::orc::SymbolLookupSet lookupSet;
  for (const auto &name : symbols)
    lookupSet.add(jit.mangleAndIntern(name));
  return jit.getExecutionSession()
      .lookup(llvm::orc::makeJITDylibSearchOrder(&jit.getMainJITDylib(),
                                                 llvm::orc::JITDylibLookupFlags::MatchAllSymbols),
              std::move(lookupSet))
      .takeError();
}

} // namespace

struct JitModule::Impl {
  std::string fileName;
  /// What the JIT session reported (e.g. "Symbols not found: [ f ]").
  /// Declared before `jit`, which reports into them until destroyed.
  std::mutex sessionErrorsMutex;
  std::string sessionErrors;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  JitTimings timings;
  std::string ir;
  bool initialized = false;

  void captureSessionErrors() {
    jit->getExecutionSession().setErrorReporter([this](llvm::Error error) {
      std::lock_guard<std::mutex> lock(sessionErrorsMutex);
      sessionErrors += llvm::toString(std::move(error)) + "\n";
    });
  }

  ~Impl() {
    // Static destructors and atexit handlers of the JIT-ed code, which the
    // LLJIT platform collected instead of handing them to the process.
    if (initialized)
      llvm::consumeError(jit->deinitialize(jit->getMainJITDylib()));
  }
};

JitModule::JitModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JitModule::~JitModule() = default;

void *JitModule::lookup(const std::string &symbol) const {
  auto address = impl_->jit->lookup(symbol);
  if (!address) {
    llvm::consumeError(address.takeError());
    throw JitError("symbol '" + symbol + "' is not defined by JIT module '" + impl_->fileName + "'",
                   "");
  }
  return address->toPtr<void *>();
}

const JitTimings &JitModule::timings() const { return impl_->timings; }
const std::string &JitModule::ir() const { return impl_->ir; }

std::unique_ptr<JitModule> compileCpp(const std::string &source, const std::string &fileName,
                                      const JitOptions &options) {
  if (options.optLevel < 0 || options.optLevel > 3)
    throw JitError("JIT optimization level must be 0..3, got " + std::to_string(options.optLevel),
                   "");
  if (fileName.empty() || fileName.front() == '-')
    throw JitError(
        "JIT input file name '" + fileName + "' must be non-empty and not start with '-'", "");
  initializeNativeTargetOnce();

  auto impl = std::make_unique<JitModule::Impl>();
  impl->fileName = fileName;
  auto start = std::chrono::steady_clock::now();
  const bool useCache = !options.cacheDir.empty() && !options.keepIr;
  const std::string key = useCache ? jit::cacheKey(source, fileName, options) : "";
  std::optional<jit::CachedObject> cached;
  if (useCache)
    cached = jit::readCachedObject(options.cacheDir, key);
  impl->timings.fromCache = cached.has_value();
  if (!cached)
    reportProgress("parsing and optimizing C++ (clang)", 0, 0);
  Compiled compiled = cached ? Compiled{std::move(*cached), nullptr, nullptr, nullptr}
                             : compileFresh(source, fileName, options, impl->ir);
  impl->timings.frontendMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  if (!compiled.ir && !cached) {
    reportProgress("generating machine code for " +
                       std::to_string(compiled.object.definedSymbols.size()) + " functions",
                   0, 0);
    compiled.object.object = compileToObject(*compiled.objectSource, options.optLevel, fileName);
    if (useCache)
      jit::writeCachedObject(options.cacheDir, key, compiled.object);
  }
  compiled.objectSource.reset();

  impl->jit = createJit(options.optLevel, options.hostSymbols);
  impl->captureSessionErrors();
  llvm::Error added = compiled.ir ? impl->jit->addIRModule(llvm::orc::ThreadSafeModule(
                                        std::move(compiled.ir), std::move(compiled.context)))
                                  : impl->jit->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
                                        compiled.object.object, fileName + ".o"));
  orThrow(std::move(added), "cannot add '" + fileName + "' to the JIT");
  if (llvm::Error error = materializeAll(*impl->jit, compiled.object.definedSymbols)) {
    std::lock_guard<std::mutex> lock(impl->sessionErrorsMutex);
    throw JitError("cannot link '" + fileName + "':",
                   impl->sessionErrors + llvm::toString(std::move(error)));
  }
  orThrow(impl->jit->initialize(impl->jit->getMainJITDylib()),
          "cannot run the static initializers of '" + fileName + "'");
  impl->initialized = true;
  impl->timings.backendMs = millisecondsSince(start);
  return std::make_unique<JitModule>(std::move(impl));
}

} // namespace shardgen
