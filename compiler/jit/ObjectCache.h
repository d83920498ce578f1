// The on-disk cache of compiled modules: a second compile of the same source
// with the same files, flags, host CPU and LLVM skips clang and code
// generation and loads the object file it produced the first time.
//
// An entry is one file, <dir>/<key>.obj: a header (format, the key again, the
// module's defined symbols, the object's size and SHA-256) and the object.
// Entries are written to a temporary file and renamed into place, so
// concurrent compiles never see half an entry; an entry that fails any check
// when read is a miss (and is replaced). Modules with static constructors or
// destructors are not cached: LLJIT runs those only for IR it compiled.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace shardgen {
struct JitOptions;

namespace jit {

struct CachedObject {
  /// The symbols the module defines (what compileCpp materializes).
  std::vector<std::string> definedSymbols;
  /// The relocatable object file, as the JIT's code generator wrote it.
  std::string object;
};

/// Hex SHA-256 of everything that decides the object: the cache format,
/// LLVM's version, the compiler's arguments, the host CPU and features, the
/// source and file name, every virtual file, and the host symbols' names.
std::string cacheKey(const std::string &source, const std::string &fileName,
                     const JitOptions &options);

/// The entry for `key` in `dir`, or nullopt when there is none or it fails
/// a check (wrong format or key, truncated, checksum mismatch).
std::optional<CachedObject> readCachedObject(const std::string &dir, const std::string &key);

/// Stores the entry; best effort (a full disk or a read-only folder just
/// means the next compile misses too).
void writeCachedObject(const std::string &dir, const std::string &key, const CachedObject &entry);

} // namespace jit
} // namespace shardgen
