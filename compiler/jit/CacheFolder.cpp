#include "compiler/jit/CacheFolder.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/SHA256.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <random>
#include <string_view>

namespace shardgen::jit {
namespace {

/// The SHA-256 of `header` followed by `object`, in hex (hashed in two
/// parts: the object is not copied to join them).
std::string sha256Hex(llvm::StringRef header, llvm::StringRef object) {
  llvm::SHA256 hash;
  hash.update(header);
  hash.update(object);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string entryName(const std::string &key) { return key + ".obj"; }

/// The line at `at` (without its '\n'), moving `at` past it; false at the end.
bool takeLine(std::string_view bytes, size_t &at, std::string_view &line) {
  size_t end = bytes.find('\n', at);
  if (end == std::string_view::npos)
    return false;
  line = bytes.substr(at, end - at);
  at = end + 1;
  return true;
}

/// A whole line of decimal digits.
bool takeCount(std::string_view bytes, size_t &at, uint64_t &value) {
  std::string_view line;
  if (!takeLine(bytes, at, line) || line.empty() || (line.size() > 1 && line[0] == '0'))
    return false; // as written: no sign, no leading zero
  auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), value);
  return error == std::errc() && end == line.data() + line.size();
}

/// Reads the whole of `descriptor` (`size` bytes, as fstat said); false if
/// it is shorter or longer now.
bool readExactly(int descriptor, int64_t size, std::string &bytes) {
  bytes.resize(static_cast<size_t>(size) + 1); // one more byte tells a grown file
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t got = ::read(descriptor, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    done += static_cast<size_t>(got);
  }
  if (done != static_cast<size_t>(size))
    return false;
  bytes.resize(done);
  return true;
}

/// Closes a descriptor when it goes out of scope.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};

/// A name no other writer picks: pid, a random number and a counter.
std::string temporaryName(const std::string &key) {
  static std::atomic<uint64_t> counter{0};
  return "." + key + ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::random_device{}()) + "." + std::to_string(counter++);
}

} // namespace

std::string encodeCacheEntry(const std::string &key, const CachedObject &entry) {
  std::string header = std::string(kCacheFormat) + "\n" + key + "\n" +
                       std::to_string(entry.definedSymbols.size()) + "\n";
  for (const std::string &symbol : entry.definedSymbols)
    header += symbol + "\n";
  header += std::to_string(entry.object.size()) + "\n";
  return header + sha256Hex(header, entry.object) + "\n" + entry.object;
}

std::optional<CachedObject> decodeCacheEntry(const std::string &bytes, const std::string &key,
                                             std::string &problem) {
  std::string_view text = bytes, line;
  size_t at = 0;
  uint64_t symbolCount = 0, objectSize = 0;
  if (!takeLine(text, at, line) || line != kCacheFormat) {
    problem = "not an entry of this shardgen's format";
    return std::nullopt;
  }
  if (!takeLine(text, at, line) || line != key) {
    problem = "its header names another key";
    return std::nullopt;
  }
  // Each symbol takes a line: a count beyond the lines left is damage,
  // found before anything is reserved for it.
  if (!takeCount(text, at, symbolCount) || symbolCount > text.size() - at) {
    problem = "its symbol list is damaged";
    return std::nullopt;
  }
  CachedObject entry;
  for (uint64_t i = 0; i < symbolCount; ++i) {
    if (!takeLine(text, at, line) || line.empty()) {
      problem = "its symbol list is damaged";
      return std::nullopt;
    }
    entry.definedSymbols.emplace_back(line);
  }
  std::string_view checksum;
  if (!takeCount(text, at, objectSize) || !takeLine(text, at, checksum) ||
      objectSize != text.size() - at) {
    problem = "it is truncated or has a damaged size";
    return std::nullopt;
  }
  // The checksum covers the header too (all before the checksum's line): a
  // damaged symbol list would otherwise pass and fail only when a later
  // module links against it.
  const size_t headerEnd = at - checksum.size() - 1;
  entry.object.assign(text.substr(at));
  if (sha256Hex(text.substr(0, headerEnd), entry.object) != checksum) {
    problem = "it does not match its checksum";
    return std::nullopt;
  }
  return entry;
}

std::unique_ptr<CacheFolder> CacheFolder::open(const std::string &path, std::string &problem) {
  int descriptor = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (descriptor < 0) {
    problem = errno == ENOTDIR || errno == ELOOP ? "it is not a folder" : std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<CacheFolder> folder(new CacheFolder(descriptor, path));
  struct stat info{};
  if (::fstat(descriptor, &info) != 0)
    problem = std::strerror(errno);
  else if (!S_ISDIR(info.st_mode))
    problem = "it is not a folder";
  else if (info.st_uid != ::geteuid())
    problem = "it belongs to another user";
  else if (info.st_mode & (S_IWGRP | S_IWOTH))
    problem = "others may write to it";
  else
    return folder;
  return nullptr;
}

CacheFolder::~CacheFolder() { ::close(descriptor_); }

std::optional<CachedObject> CacheFolder::read(const std::string &key, std::string &problem) const {
  problem.clear();
  const std::string name = entryName(key);
  // No symlink is followed and nothing blocks: a FIFO or a device in the
  // folder is refused by fstat below, not waited on or read forever.
  Descriptor entry{::openat(descriptor_, name.c_str(),
                            O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  struct stat info{};
  std::string bytes;
  std::optional<CachedObject> object;
  if (entry.fd < 0) {
    if (errno == ENOENT)
      return std::nullopt; // the usual miss
    problem = errno == ELOOP ? "it is a symlink" : std::strerror(errno);
  } else if (::fstat(entry.fd, &info) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    problem = "it is not a regular file";
  } else if (info.st_uid != ::geteuid()) {
    problem = "it belongs to another user";
  } else if (info.st_size > kMaxCacheEntryBytes) {
    problem = "it is larger than any entry (" + std::to_string(info.st_size) + " bytes)";
  } else if (!readExactly(entry.fd, info.st_size, bytes)) {
    problem = "it changed while it was read";
  } else {
    object = decodeCacheEntry(bytes, key, problem);
  }
  if (object)
    return object;
  // Removed so it is compiled again; only the remover reports it (ranks of
  // one MPI job share the folder and may all find the same damage).
  if (::unlinkat(descriptor_, name.c_str(), 0) == 0 ||
      ::unlinkat(descriptor_, name.c_str(), AT_REMOVEDIR) == 0)
    problem += "; removed it";
  else if (errno == ENOENT)
    problem.clear();
  else
    problem += "; cannot remove it: " + std::string(std::strerror(errno));
  return std::nullopt;
}

std::string CacheFolder::entryPath(const std::string &key) const {
  return path_ + "/" + entryName(key);
}

std::string CacheFolder::damagedEntryWarning(const std::string &key,
                                             const std::string &problem) const {
  return "compile cache entry " + entryPath(key) + " is damaged (" + problem + "); compiling again";
}

void CacheFolder::write(const std::string &key, const CachedObject &entry) const {
  for (const std::string &symbol : entry.definedSymbols)
    if (symbol.empty() || symbol.find('\n') != std::string::npos)
      return; // not representable in the line-based header
  const std::string bytes = encodeCacheEntry(key, entry);
  const std::string temporary = temporaryName(key);
  Descriptor out{::openat(descriptor_, temporary.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)};
  if (out.fd < 0)
    return;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t wrote = ::write(out.fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR)
      continue;
    if (wrote <= 0)
      break;
    done += static_cast<size_t>(wrote);
  }
  if (done != bytes.size() ||
      ::renameat(descriptor_, temporary.c_str(), descriptor_, entryName(key).c_str()) != 0)
    ::unlinkat(descriptor_, temporary.c_str(), 0);
}

bool CacheFolder::remove(const std::string &key) const {
  return ::unlinkat(descriptor_, entryName(key).c_str(), 0) == 0;
}

} // namespace shardgen::jit
