// The ORC side of the JIT: one LLJIT instance per compiled module.
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/JitBackend.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/jit/ObjectCache.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

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
/// modules never clash, and its memory goes away with the module. Without
/// `staticInitialization` (no unit has static constructors or destructors:
/// every object the cache holds) the JIT gets no platform: LLJIT's generic
/// one compiles its own support module through the code generator at every
/// start (a few milliseconds of a cached run).
std::unique_ptr<llvm::orc::LLJIT> createJit(int optLevel,
                                            const std::map<std::string, void *> &hostSymbols,
                                            bool staticInitialization) {
  llvm::orc::LLJITBuilder builder;
  builder.setJITTargetMachineBuilder(hostTarget(optLevel))
      .setProcessSymbolsJITDylibSetup(explicitSymbolTable(hostSymbols));
  if (!staticInitialization)
    builder.setPlatformSetUp(llvm::orc::setUpInactivePlatform);
  return orThrow(builder.create(), "cannot create the JIT");
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

/// Runs clang on `source`; the symbols it uses that the host table lacks go
/// to `outsideTable` (another unit of the module may define them), the IR
/// text to `irText` when options.keepIr.
Compiled compileFresh(const std::string &source, const std::string &fileName,
                      const JitOptions &options, std::string &irText,
                      std::vector<std::string> &outsideTable) {
  Compiled compiled;
  compiled.context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module =
      jit::emitLlvmModule(source, fileName, options, *compiled.context);
  if (options.keepIr) {
    llvm::raw_string_ostream irStream(irText);
    module->print(irStream, nullptr);
  }
  outsideTable = symbolsOutsideTable(*module, options.hostSymbols);
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

/// Says `message` through options.cacheWarning, one call at a time (units
/// compile on several threads).
void warnAboutCache(const JitOptions &options, const std::string &message) {
  static std::mutex mutex;
  if (!options.cacheWarning)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  options.cacheWarning(message);
}

/// The cache folder of `options`, opened once for the whole compile (every
/// entry is then reached through this descriptor), or null: no cache, or
/// one that is not fit to run code from (said through cacheWarning).
std::unique_ptr<jit::CacheFolder> openCache(const JitOptions &options) {
  if (options.cacheDir.empty() || options.keepIr)
    return nullptr;
  std::string problem;
  std::unique_ptr<jit::CacheFolder> folder = jit::CacheFolder::open(options.cacheDir, problem);
  if (!folder)
    warnAboutCache(options, "not using the compile cache " + options.cacheDir + ": " + problem);
  return folder;
}

/// Why a module did not link, in one line: the summary and, when that
/// ends in ':', the first line of the diagnostics (LLVM's errors may run
/// over several).
std::string oneLineReason(const JitError &error) {
  std::string reason = error.what();
  if (!reason.empty() && reason.back() == ':')
    reason += " " + error.diagnostics();
  return reason.substr(0, reason.find('\n'));
}

/// One translation unit's way through clang and the code generator (or
/// the cache), on a worker thread.
struct UnitWork {
  const JitSource *unit = nullptr;
  std::string key;        // the cache key, when the cache is used
  bool skipCache = false; // its cached object would not load: compile it
  bool fromCache = false;
  bool generated = false; // an object made now, cached once the module links
  Compiled compiled;
  std::vector<std::string> outsideTable;
  std::string ir;
  double frontendMs = 0, codegenMs = 0;
  std::exception_ptr error;
};

void compileUnit(UnitWork &work, const JitOptions &options, const jit::CacheFolder *cache) {
  try {
    const JitSource &unit = *work.unit;
    auto start = std::chrono::steady_clock::now();
    if (cache) {
      work.key = jit::cacheKey(unit.source, unit.fileName, options);
      std::string problem;
      std::optional<jit::CachedObject> cached;
      if (!work.skipCache)
        cached = cache->read(work.key, problem);
      if (!problem.empty())
        warnAboutCache(options, cache->damagedEntryWarning(work.key, problem));
      if (cached) {
        work.compiled.object = std::move(*cached);
        work.fromCache = true;
        work.frontendMs = millisecondsSince(start);
        return;
      }
    }
    work.compiled = compileFresh(unit.source, unit.fileName, options, work.ir, work.outsideTable);
    work.frontendMs = millisecondsSince(start);
    start = std::chrono::steady_clock::now();
    if (!work.compiled.ir) {
      work.compiled.object.object =
          compileToObject(*work.compiled.objectSource, options.optLevel, unit.fileName);
      work.generated = true;
    }
    work.compiled.objectSource.reset();
    work.codegenMs = millisecondsSince(start);
  } catch (...) {
    work.error = std::current_exception();
  }
}

/// Compiles every unit, on up to options.compileThreads threads (the
/// calling one included); rethrows the first unit's error.
void compileUnits(std::vector<UnitWork> &work, const JitOptions &options,
                  const jit::CacheFolder *cache) {
  size_t threads = options.compileThreads > 0 ? static_cast<size_t>(options.compileThreads)
                                              : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, work.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t u = next++; u < work.size(); u = next++)
      compileUnit(work[u], options, cache);
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t)
    helpers.emplace_back(worker);
  worker();
  for (std::thread &helper : helpers)
    helper.join();
  for (UnitWork &unit : work)
    if (unit.error)
      std::rethrow_exception(unit.error);
}

/// A symbol a unit uses must be in the host table or defined by a unit.
void checkSymbols(const std::vector<UnitWork> &work) {
  std::set<std::string> defined;
  for (const UnitWork &unit : work)
    defined.insert(unit.compiled.object.definedSymbols.begin(),
                   unit.compiled.object.definedSymbols.end());
  for (const UnitWork &unit : work) {
    std::vector<std::string> missing;
    for (const std::string &name : unit.outsideTable)
      if (!defined.count(name))
        missing.push_back(name);
    if (!missing.empty())
      throw JitError("cannot link '" + unit.unit->fileName +
                         "': it uses symbols that are not in the "
                         "JIT's symbol table: " +
                         joined(missing),
                     "");
  }
}

/// A module as LLJIT holds it.
class LlvmJitModule final : public JitModule {
public:
  explicit LlvmJitModule(std::string fileName) : fileName_(std::move(fileName)) {}
  LlvmJitModule(const LlvmJitModule &) = delete;
  LlvmJitModule &operator=(const LlvmJitModule &) = delete;

  ~LlvmJitModule() override {
    // Static destructors and atexit handlers of the JIT-ed code, which the
    // LLJIT platform collected instead of handing them to the process.
    if (initialized_)
      llvm::consumeError(jit_->deinitialize(jit_->getMainJITDylib()));
  }

  void *lookup(const std::string &symbol) const override {
    auto address = jit_->lookup(symbol);
    if (!address) {
      llvm::consumeError(address.takeError());
      throw JitError("symbol '" + symbol + "' is not defined by JIT module '" + fileName_ + "'",
                     "");
    }
    return address->toPtr<void *>();
  }
  const JitTimings &timings() const override { return timings_; }
  const std::string &ir() const override { return ir_; }

  /// Links the compiled units into a new LLJIT and runs their static
  /// initializers.
  void link(std::vector<UnitWork> &work, const std::vector<std::string> &symbols,
            const JitOptions &options);

  JitTimings timings_;
  std::string ir_;

private:
  void captureSessionErrors() {
    jit_->getExecutionSession().setErrorReporter([this](llvm::Error error) {
      std::lock_guard<std::mutex> lock(sessionErrorsMutex_);
      sessionErrors_ += llvm::toString(std::move(error)) + "\n";
    });
  }

  std::string fileName_;
  /// What the JIT session reported (e.g. "Symbols not found: [ f ]").
  /// Declared before `jit_`, which reports into them until destroyed.
  std::mutex sessionErrorsMutex_;
  std::string sessionErrors_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  bool initialized_ = false;
};

void LlvmJitModule::link(std::vector<UnitWork> &work, const std::vector<std::string> &symbols,
                         const JitOptions &options) {
  bool staticInitialization = std::any_of(
      work.begin(), work.end(), [](const UnitWork &unit) { return unit.compiled.ir != nullptr; });
  jit_ = createJit(options.optLevel, options.hostSymbols, staticInitialization);
  captureSessionErrors();
  for (UnitWork &unit : work) {
    Compiled &compiled = unit.compiled;
    const std::string &fileName = unit.unit->fileName;
    llvm::Error added = compiled.ir ? jit_->addIRModule(llvm::orc::ThreadSafeModule(
                                          std::move(compiled.ir), std::move(compiled.context)))
                                    : jit_->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
                                          compiled.object.object, fileName + ".o"));
    orThrow(std::move(added), "cannot add '" + fileName + "' to the JIT");
  }
  if (llvm::Error error = materializeAll(*jit_, symbols)) {
    std::lock_guard<std::mutex> lock(sessionErrorsMutex_);
    throw JitError("cannot link '" + fileName_ + "':",
                   sessionErrors_ + llvm::toString(std::move(error)));
  }
  orThrow(jit_->initialize(jit_->getMainJITDylib()),
          "cannot run the static initializers of '" + fileName_ + "'");
  initialized_ = true;
}

/// Links the compiled units into one JIT module: symbols checked, every
/// object and IR module added, every symbol materialized, static
/// initializers run. Objects made now go into the cache once they linked.
/// `start`: when compiling began (for the timings).
std::unique_ptr<JitModule> linkUnits(std::vector<UnitWork> &work, const JitOptions &options,
                                     const jit::CacheFolder *cache,
                                     std::chrono::steady_clock::time_point start) {
  auto module = std::make_unique<LlvmJitModule>(work.front().unit->fileName);
  checkSymbols(work);
  std::vector<std::string> symbols;
  module->timings_.fromCache = true;
  for (UnitWork &unit : work) {
    module->timings_.fromCache = module->timings_.fromCache && unit.fromCache;
    symbols.insert(symbols.end(), unit.compiled.object.definedSymbols.begin(),
                   unit.compiled.object.definedSymbols.end());
    module->ir_ += unit.ir;
  }
  // One unit: clang alone is the frontend, as before; several: all of their
  // (parallel) compiling.
  module->timings_.frontendMs = work.size() == 1 ? work[0].frontendMs : millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  module->link(work, symbols, options);
  module->timings_.backendMs =
      millisecondsSince(start) + (work.size() == 1 ? work[0].codegenMs : 0.0);
  for (UnitWork &unit : work)
    if (unit.generated && cache)
      cache->write(unit.key, unit.compiled.object);
  return module;
}

} // namespace

namespace jit {

std::unique_ptr<JitModule> compileCppUnits(const std::vector<JitSource> &units,
                                           const JitOptions &options) {
  if (options.optLevel < 0 || options.optLevel > 3)
    throw JitError("JIT optimization level must be 0..3, got " + std::to_string(options.optLevel),
                   "");
  if (units.empty())
    throw JitError("nothing to compile: no JIT input file", "");
  for (const JitSource &unit : units)
    if (unit.fileName.empty() || unit.fileName.front() == '-')
      throw JitError("JIT input file name '" + unit.fileName +
                         "' must be non-empty and not start with '-'",
                     "");
  initializeNativeTargetOnce();

  std::unique_ptr<CacheFolder> cache = openCache(options);
  auto start = std::chrono::steady_clock::now();
  std::vector<UnitWork> work(units.size());
  for (size_t u = 0; u < units.size(); ++u)
    work[u].unit = &units[u];
  compileUnits(work, options, cache.get());
  try {
    return linkUnits(work, options, cache.get(), start);
  } catch (const JitError &error) {
    if (std::none_of(work.begin(), work.end(), [](const UnitWork &unit) { return unit.fromCache; }))
      throw;
    // An object from the cache the JIT cannot load (damaged inside an intact
    // entry) is a miss like any other damage: its entry goes, and the
    // module is compiled again without it.
    for (size_t u = 0; u < units.size(); ++u) {
      bool cached = work[u].fromCache;
      if (cached && cache->remove(work[u].key))
        warnAboutCache(options, "compile cache entry " + cache->entryPath(work[u].key) +
                                    " could not be loaded (" + oneLineReason(error) +
                                    "; removed it); compiling again");
      work[u] = UnitWork{};
      work[u].unit = &units[u];
      work[u].skipCache = cached;
    }
    start = std::chrono::steady_clock::now();
    compileUnits(work, options, cache.get());
    return linkUnits(work, options, cache.get(), start);
  }
}

} // namespace jit
} // namespace shardgen
