// In-process compilation of a C++ translation unit to native code.
//
// The source is compiled by clang's library (no compiler subprocess) for the
// host CPU and linked into its own LLVM ORC JIT instance. This header includes
// no LLVM or clang header on purpose: those cost ~11 s of parsing per
// translation unit, so only compiler/jit/*.cpp see them. The functions below
// load clang and LLVM (the module libshardgen-jit.so, JitBackend.h) at their
// first call; baseHostSymbols() and JitError need neither.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace shardgen {

/// What a compilation may see. The JIT is hermetic: it reads no file and
/// links no symbol that is not listed here (plus the JIT's own freestanding
/// <stddef.h> and <stdint.h>, and what ORC's platform defines for static
/// initialization: __cxa_atexit, atexit, __dso_handle).
struct JitOptions {
  /// 0..3, as clang's -O<n>.
  int optLevel = 2;
  /// -I directories, searched after the directory of the including file.
  /// They are directories of `virtualFiles`: nothing is read from disk.
  std::vector<std::string> includeDirs;
  /// The files #include can see, path -> contents, all in memory. Relative
  /// paths are relative to the in-memory directory of the main file.
  std::vector<std::pair<std::string, std::string>> virtualFiles;
  /// -D arguments: "NAME" or "NAME=VALUE".
  std::vector<std::string> defines;
  /// The only host symbols JIT-ed code links against, linker name ->
  /// address (e.g. baseHostSymbols() plus the functions the code calls).
  /// The symbols of the process are never searched: a reference to any
  /// other undefined symbol is a JitError naming it.
  std::map<std::string, void *> hostSymbols;
  /// Keep the optimized LLVM IR text, for JitModule::ir() (debugging, tests).
  /// A module compiled with keepIr is neither taken from nor put in the cache.
  bool keepIr = false;
  /// When not empty, an existing folder where compiled objects are cached
  /// (ObjectCache.h): compiling the same source with the same files, flags,
  /// host CPU and LLVM again loads the object instead of running clang and
  /// the code generator. An object found there is executed, so the folder
  /// is opened once per compile and used only if this user owns it and
  /// nobody else may write to it (docs/compile-cache.md); every entry is
  /// reached through that open folder. A damaged entry is removed and
  /// compiled again.
  std::string cacheDir;
  /// Told, one line at a time, when the cache folder is not used and when a
  /// damaged entry is removed (the compile goes on either way).
  std::function<void(const std::string &)> cacheWarning;
  /// Threads compiling the units of compileCppUnits at once; 0: one per core.
  int compileThreads = 0;
};

/// One translation unit of a module: its file name (in diagnostics and for
/// relative includes) and its C++ text.
struct JitSource {
  std::string fileName;
  std::string source;
};

/// The host functions optimized C++ may call without calling anything
/// itself: memcpy/memmove/memset/memcmp/bcmp, the math functions of <math.h>
/// (float and double, sincos and exp10 included), operator new/delete, and
/// the C++ ABI's exception support (personality, _Unwind_Resume,
/// __cxa_begin_catch/__cxa_end_catch, std::terminate). None of them reaches
/// files, other processes or the environment (std::terminate ends the
/// process, as a noexcept violation must).
std::map<std::string, void *> baseHostSymbols();

/// A compilation or link failure. what() is a one-line summary followed by
/// clang's diagnostics ("file:line:col: error: ...").
class JitError : public std::runtime_error {
public:
  JitError(const std::string &summary, std::string diagnostics);
  /// The compiler's own diagnostics text, possibly empty.
  const std::string &diagnostics() const { return diagnostics_; }

private:
  std::string diagnostics_;
};

/// Wall-clock milliseconds spent per compilation phase.
struct JitTimings {
  /// Parsing, IR generation and IR optimization (clang); for a module of
  /// several units, all their compiling (code generation included), which
  /// runs in parallel.
  double frontendMs = 0;
  /// Machine-code generation (of a one-unit module), linking and static
  /// initializers (ORC).
  double backendMs = 0;
  /// Every object came from JitOptions::cacheDir (frontendMs is then the
  /// cache lookup, and no code was generated).
  bool fromCache = false;
};

/// One compiled translation unit with its own symbol namespace: two modules
/// may define the same symbols. Code and data live as long as the module;
/// destroying it runs the static destructors of the JIT-ed code.
/// lookup() may be called from several threads at once. (The JIT module
/// implements it: JitModule.cpp.)
class JitModule {
public:
  JitModule() = default;
  virtual ~JitModule() = default;
  JitModule(const JitModule &) = delete;
  JitModule &operator=(const JitModule &) = delete;
  JitModule(JitModule &&) = delete;
  JitModule &operator=(JitModule &&) = delete;

  /// The address of a symbol defined by the module (use extern "C" names, or
  /// mangled C++ names). Throws JitError when it is not defined.
  virtual void *lookup(const std::string &symbol) const = 0;

  /// lookup() cast to a function type, e.g. lookupFunction<int(int)>("f").
  template <typename Signature> Signature *lookupFunction(const std::string &symbol) const {
    return reinterpret_cast<Signature *>(lookup(symbol));
  }

  virtual const JitTimings &timings() const = 0;
  /// The optimized LLVM IR, when JitOptions::keepIr was set; else empty.
  virtual const std::string &ir() const = 0;
};

/// Compiles `source` (C++20, named `fileName` in diagnostics and for relative
/// includes) to native code for the host CPU, runs its static initializers,
/// and returns the module. Throws JitError on any compile or link error; a
/// bad program never aborts the process.
std::unique_ptr<JitModule> compileCpp(const std::string &source, const std::string &fileName,
                                      const JitOptions &options = {});

/// Compiles several translation units into one module, in parallel
/// (JitOptions::compileThreads) and each cached on its own: they share one
/// symbol namespace, so a unit may call the external functions of another.
/// Otherwise as compileCpp (which is this with one unit).
std::unique_ptr<JitModule> compileCppUnits(const std::vector<JitSource> &units,
                                           const JitOptions &options = {});

/// The linker names clang gives `functions`: C++ expressions of one function
/// address each ("&shardgen::runtime::allReduce"), compiled after `prelude`
/// (its includes and declarations) with `options`. So a host table binds the
/// C++ functions of a header by declaration, never by a hand-spelled mangled
/// name. Throws JitError when an expression does not compile. With
/// options.cacheDir the answer is cached there too (no clang at the next
/// process's call).
std::vector<std::string> linkerNamesOf(const std::string &prelude,
                                       const std::vector<std::string> &functions,
                                       const JitOptions &options = {});

/// The LLVM name of the host CPU (e.g. "sapphirerapids"), as compiled for
/// (loads the JIT module).
std::string hostCpuName();

} // namespace shardgen
