// The on-disk cache of compiled modules: a second compile of the same source
// with the same files, flags, host CPU and LLVM skips clang and code
// generation and loads the object file it produced the first time. Entries
// live in a CacheFolder (CacheFolder.h), keyed by cacheKey. Modules with
// static constructors or destructors are not cached: LLJIT runs those only
// for IR it compiled.
#pragma once

#include <string>

#include "compiler/jit/CacheFolder.h"

namespace shardgen {
struct JitOptions;

namespace jit {

/// Hex SHA-256 of everything that decides the object: the cache format,
/// LLVM's version, the compiler's arguments, the host CPU and features, the
/// source and file name, every virtual file, and the host symbols' names.
std::string cacheKey(const std::string &source, const std::string &fileName,
                     const JitOptions &options);

} // namespace jit
} // namespace shardgen
