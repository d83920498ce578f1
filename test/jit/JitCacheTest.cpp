// The on-disk object cache (JitOptions::cacheDir, compiler/jit/ObjectCache.h):
// a second compile of the same source is loaded, not compiled, and computes
// the same; anything that changes the code misses; a damaged entry is a miss
// that gets replaced; modules with static initialization are never cached.
#include "compiler/jit/JitCompiler.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace shardgen {
namespace {

namespace fs = std::filesystem;

struct CacheFolder {
  fs::path path;
  CacheFolder() {
    path = fs::temp_directory_path() / ("shardgen-jit-cache-test-" + std::to_string(::getpid()) +
                                        "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~CacheFolder() { fs::remove_all(path); }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(path))
      files.push_back(entry.path());
    return files;
  }
};

const char *kSource = R"(
  extern "C" int polynomial(int x) { return 3 * x * x + SHIFT; }
)";

JitOptions cachedOptions(const CacheFolder &cache, int shift = 7) {
  JitOptions options;
  options.cacheDir = cache.path.string();
  options.defines = {"SHIFT=" + std::to_string(shift)};
  return options;
}

int callPolynomial(const JitModule &module, int x) {
  return module.lookupFunction<int(int)>("polynomial")(x);
}

std::string readAll(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void writeAll(const fs::path &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST_CASE("a second compile of the same source comes from the cache and computes the same") {
  CacheFolder cache;
  auto first = compileCpp(kSource, "poly.cpp", cachedOptions(cache));
  CHECK_FALSE(first->timings().fromCache);
  REQUIRE(cache.entries().size() == 1);
  auto second = compileCpp(kSource, "poly.cpp", cachedOptions(cache));
  CHECK(second->timings().fromCache);
  CHECK(callPolynomial(*first, 5) == 82);
  CHECK(callPolynomial(*second, 5) == 82);
  CHECK(cache.entries().size() == 1);
}

TEST_CASE("a different source, define, optimization level or file misses") {
  CacheFolder cache;
  compileCpp(kSource, "poly.cpp", cachedOptions(cache));
  auto otherDefine = compileCpp(kSource, "poly.cpp", cachedOptions(cache, 8));
  CHECK_FALSE(otherDefine->timings().fromCache);
  CHECK(callPolynomial(*otherDefine, 5) == 83);
  JitOptions o1 = cachedOptions(cache);
  o1.optLevel = 1;
  CHECK_FALSE(compileCpp(kSource, "poly.cpp", o1)->timings().fromCache);
  JitOptions withHeader = cachedOptions(cache);
  withHeader.virtualFiles = {{"/v/unused.h", "int unused;"}};
  CHECK_FALSE(compileCpp(kSource, "poly.cpp", withHeader)->timings().fromCache);
  CHECK_FALSE(compileCpp(std::string(kSource) + " ", "poly.cpp", cachedOptions(cache))
                  ->timings()
                  .fromCache);
  CHECK(cache.entries().size() == 5);
}

TEST_CASE("a damaged entry is a miss and is replaced by a good one") {
  CacheFolder cache;
  compileCpp(kSource, "poly.cpp", cachedOptions(cache));
  REQUIRE(cache.entries().size() == 1);
  const fs::path entry = cache.entries()[0];
  const std::string good = readAll(entry);

  std::string flipped = good;
  flipped[flipped.size() - 100] ^= 0x5a; // inside the object: the checksum catches it
  std::string badFormat = good;
  badFormat[0] = 'X';
  for (const std::string &damaged :
       {flipped, badFormat, good.substr(0, good.size() / 2), std::string(), good + "extra"}) {
    writeAll(entry, damaged);
    auto module = compileCpp(kSource, "poly.cpp", cachedOptions(cache));
    CHECK_FALSE(module->timings().fromCache);
    CHECK(callPolynomial(*module, 2) == 19);
    CHECK(readAll(entry) == good);
  }
}

TEST_CASE("a module with static initialization is compiled from IR and never cached") {
  CacheFolder cache;
  const char *source = R"(
    int computeAtLoad() { return 41; }
    int loaded = computeAtLoad() + 1;  // a dynamic initializer
    extern "C" int valueAtLoad() { return loaded; }
  )";
  for (int i = 0; i < 2; ++i) {
    auto module = compileCpp(source, "init.cpp", cachedOptions(cache));
    CHECK_FALSE(module->timings().fromCache);
    CHECK(module->lookupFunction<int()>("valueAtLoad")() == 42);
  }
  CHECK(cache.entries().empty());
}

TEST_CASE("keepIr bypasses the cache: the IR is always there") {
  CacheFolder cache;
  compileCpp(kSource, "poly.cpp", cachedOptions(cache));
  JitOptions options = cachedOptions(cache);
  options.keepIr = true;
  auto module = compileCpp(kSource, "poly.cpp", options);
  CHECK_FALSE(module->timings().fromCache);
  CHECK(module->ir().find("polynomial") != std::string::npos);
}

TEST_CASE("concurrent compiles of one source share the cache safely") {
  CacheFolder cache;
  std::vector<std::thread> threads;
  std::vector<int> results(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      auto module = compileCpp(kSource, "poly.cpp", cachedOptions(cache));
      results[t] = callPolynomial(*module, t);
    });
  for (auto &thread : threads)
    thread.join();
  for (int t = 0; t < 4; ++t)
    CHECK(results[t] == 3 * t * t + 7);
  REQUIRE(cache.entries().size() == 1); // no temporary file left behind
  CHECK(compileCpp(kSource, "poly.cpp", cachedOptions(cache))->timings().fromCache);
}

} // namespace
} // namespace shardgen
