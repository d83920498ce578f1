// The folder of the compile cache and the entries in it (ObjectCache.h says
// what they are for; docs/compile-cache.md who must own what).
//
// An entry is one file, <folder>/<key>.obj: a header (format, the key again,
// the module's defined symbols, the object's size, and the SHA-256 of all
// that and the object) and the object. Entries are written to a temporary
// file and renamed into place, so concurrent compiles never see half an
// entry.
//
// The folder is a security boundary (objects found there are executed): it
// is opened once, its owner and mode are checked on the open descriptor, and
// every entry is read, written, renamed and removed relative to that
// descriptor, never by path. An entry that fails any check (not a regular
// file of this user, too large, wrong format or key, truncated, checksum
// mismatch) is removed and counts as a miss.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shardgen::jit {

/// The first line of every entry; bump when the layout or what goes into
/// the key changes.
inline constexpr const char *kCacheFormat = "shardgen-jit-object-v2";

struct CachedObject {
  /// The symbols the module defines (what compileCpp materializes).
  std::vector<std::string> definedSymbols;
  /// The relocatable object file, as the JIT's code generator wrote it.
  std::string object;
};

/// An entry file larger than this is damaged (objects of generated programs
/// are a few MB): it is never read into memory.
inline constexpr int64_t kMaxCacheEntryBytes = int64_t(1) << 30;

/// The entry file's bytes for `key` (header and object).
std::string encodeCacheEntry(const std::string &key, const CachedObject &entry);
/// The entry in `bytes`, or why it is not one for `key` ("checksum
/// mismatch", ...). Never throws; any bytes are either.
std::optional<CachedObject> decodeCacheEntry(const std::string &bytes, const std::string &key,
                                             std::string &problem);

/// One open cache folder; see the file comment. Safe to use from several
/// threads (each call opens its own entry descriptor).
class CacheFolder {
public:
  /// Opens `path` (O_DIRECTORY | O_NOFOLLOW: a symlink is refused) and
  /// checks on the descriptor that it is a folder owned by this user that
  /// neither group nor others may write to. nullptr, with `problem` set
  /// ("it belongs to another user"), when it is not fit.
  static std::unique_ptr<CacheFolder> open(const std::string &path, std::string &problem);
  ~CacheFolder();
  CacheFolder(const CacheFolder &) = delete;
  CacheFolder &operator=(const CacheFolder &) = delete;

  const std::string &path() const { return path_; }

  /// The entry for `key`, or nullopt: none (`problem` empty), or a damaged
  /// one, which this call removes (`problem` says why and that it was
  /// removed, or why it could not be; empty when another process removed
  /// it first).
  std::optional<CachedObject> read(const std::string &key, std::string &problem) const;
  /// <folder>/<key>.obj, for messages.
  std::string entryPath(const std::string &key) const;
  /// What to warn of when read() found `key` damaged: "compile cache entry
  /// <folder>/<key>.obj is damaged (<problem>); compiling again".
  std::string damagedEntryWarning(const std::string &key, const std::string &problem) const;
  /// Stores the entry; best effort (a full disk or a read-only folder just
  /// means the next compile misses too).
  void write(const std::string &key, const CachedObject &entry) const;
  /// Removes the entry; true when this call removed it (false: gone already).
  bool remove(const std::string &key) const;

private:
  CacheFolder(int descriptor, std::string path) : descriptor_(descriptor), path_(std::move(path)) {}
  int descriptor_;
  std::string path_;
};

} // namespace shardgen::jit
