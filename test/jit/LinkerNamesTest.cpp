// linkerNamesOf: clang's own names for C++ functions of a header, so a host
// table binds them by declaration; with a cache folder the answer is kept
// there and read back by the next call, which then runs no clang (what lets
// a `shardgen run` whose program is cached start without a clang parse).
#include "compiler/jit/CacheFolder.h"
#include "compiler/jit/JitCompiler.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace shardgen {
namespace {

namespace fs = std::filesystem;

const char *kPrelude = R"(
  namespace lib {
  int twice(int x);
  float twice(float x);
  } // namespace lib
  extern "C" void plain(void);
)";

const std::vector<std::string> kFunctions = {"static_cast<int (*)(int)>(&lib::twice)",
                                             "static_cast<float (*)(float)>(&lib::twice)",
                                             "&plain"};

const std::vector<std::string> kNames = {"_ZN3lib5twiceEi", "_ZN3lib5twiceEf", "plain"};

} // namespace

TEST_CASE("linkerNamesOf gives clang's names of overloaded and C functions") {
  CHECK(linkerNamesOf(kPrelude, kFunctions) == kNames);
}

TEST_CASE("linkerNamesOf with a cache folder answers the next call from there") {
  fs::path cache =
      fs::temp_directory_path() / ("shardgen-linker-names-test-" + std::to_string(::getpid()));
  fs::create_directories(cache);
  JitOptions options;
  options.cacheDir = cache.string();
  CHECK(linkerNamesOf(kPrelude, kFunctions, options) == kNames);
  std::vector<fs::path> entries;
  for (const auto &entry : fs::directory_iterator(cache))
    entries.push_back(entry.path());
  REQUIRE(entries.size() == 1);

  // The entry holds the names: one changed there is what the next call
  // returns, so that call read the cache instead of compiling the probe.
  std::string text;
  {
    std::ifstream in(entries[0], std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string key = entries[0].stem().string(), problem;
  std::optional<jit::CachedObject> entry = jit::decodeCacheEntry(text, key, problem);
  REQUIRE_MESSAGE(entry, problem);
  REQUIRE(entry->definedSymbols.size() == 3);
  REQUIRE(entry->definedSymbols[2] == "plain");
  entry->definedSymbols[2] = "plaiN";
  std::ofstream(entries[0], std::ios::binary | std::ios::trunc)
      << jit::encodeCacheEntry(key, *entry);
  std::vector<std::string> cached = linkerNamesOf(kPrelude, kFunctions, options);
  REQUIRE(cached.size() == 3);
  CHECK(cached[2] == "plaiN");

  // Another header misses (and is answered by clang).
  CHECK(linkerNamesOf(std::string(kPrelude) + "\n// changed\n", kFunctions, options) == kNames);
  fs::remove_all(cache);
}

} // namespace shardgen
