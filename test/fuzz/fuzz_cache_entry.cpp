// The compile cache's entries (compiler/jit/CacheFolder.h) on arbitrary
// bytes: an entry file holding them is either a miss (and is gone from the
// folder afterwards) or a hit whose object is exactly what the bytes hold;
// reading never crashes, hangs or allocates past the bytes given. The first
// byte chooses how the rest is used: as the whole entry file, or as the
// object inside a valid header (which must then be a hit), or as the header
// of a valid object.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "compiler/jit/CacheFolder.h"

namespace {

const std::string kKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

[[noreturn]] void bug(const char *what) {
  std::fprintf(stderr, "cache entry bug: %s\n", what);
  std::abort();
}

/// One private folder for the whole run (mode 0700, as the cache's).
const std::string &folderPath() {
  static const std::string path = [] {
    char pattern[] = "/tmp/shardgen-fuzz-cache-XXXXXX";
    if (!::mkdtemp(pattern))
      bug("cannot make the folder");
    return std::string(pattern);
  }();
  return path;
}

void writeEntry(const std::string &bytes) {
  std::ofstream(folderPath() + "/" + kKey + ".obj", std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace shardgen::jit;
  if (size == 0)
    return 0;
  const std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  std::string problem;
  static std::unique_ptr<CacheFolder> folder = CacheFolder::open(folderPath(), problem);
  if (!folder)
    bug(problem.c_str());
  const std::string entryPath = folderPath() + "/" + kKey + ".obj";

  std::string bytes;
  bool mustHit = false;
  switch (data[0] % 3) {
  case 0: // the whole entry file
    bytes = rest;
    break;
  case 1: { // a valid entry around these bytes as the object
    CachedObject object{{"run_program", "device_0"}, rest};
    bytes = encodeCacheEntry(kKey, object);
    mustHit = true;
    break;
  }
  default: { // these bytes as the header of a valid object's entry
    CachedObject object{{"f"},
                        "\x7f"
                        "ELF object bytes"};
    std::string good = encodeCacheEntry(kKey, object);
    bytes = rest + good.substr(good.find("\n" + std::to_string(object.object.size()) + "\n"));
    break;
  }
  }
  writeEntry(bytes);
  std::optional<CachedObject> read = folder->read(kKey, problem);
  struct stat info{};
  bool present = ::lstat(entryPath.c_str(), &info) == 0;
  if (!read) {
    if (mustHit)
      bug("a valid entry was a miss");
    if (present)
      bug("a miss left its entry behind");
    if (problem.empty())
      bug("a damaged entry was not reported");
    return 0;
  }
  if (!present)
    bug("a hit removed its entry");
  std::string again;
  std::optional<CachedObject> decoded = decodeCacheEntry(bytes, kKey, again);
  if (!decoded || decoded->object != read->object ||
      decoded->definedSymbols != read->definedSymbols)
    bug("a hit differs from the bytes");
  if (encodeCacheEntry(kKey, *read) != bytes)
    bug("a hit does not encode back to its bytes");
  return 0;
}
