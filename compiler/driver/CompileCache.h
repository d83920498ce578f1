#pragma once
// The JIT's compile cache of a user's front ends (shardgen run, the Python
// module): compiled objects are kept in $XDG_CACHE_HOME/shardgen (else
// ~/.cache/shardgen), so compiling an unchanged program again skips clang
// and code generation. SHARDGEN_NO_CACHE=1 in the environment turns it off.
// Objects found there are executed: the folder must be this user's alone,
// which the JIT checks on the folder it opens (compiler/jit/CacheFolder.h)
// and says through JitOptions::cacheWarning.

#include <string>

namespace shardgen::driver {

struct CompileCacheFolder {
  std::string dir;     // the folder to use, created (mode 0700); "" for none
  std::string problem; // why a folder was not used ("" when it is, or none was asked for)
  std::string refused; // the folder refused, when `problem` says why
};

/// The user's compile cache folder: none when SHARDGEN_NO_CACHE=1 or
/// without a home; refused (with `problem`) when it cannot be made. Whether
/// it is safe to run code from (a folder of this user that nobody else may
/// write to) is the JIT's check, on the descriptor it opens.
CompileCacheFolder userCompileCache();

} // namespace shardgen::driver
