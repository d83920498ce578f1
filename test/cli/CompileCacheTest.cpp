// `shardgen run`'s compile cache through the binary: the second run of an
// unchanged graph loads the program compiled by the first (same outputs, no
// new entry), --no-cache neither reads nor writes, and a cache folder others
// may write to is not used (its objects would be executed).
#include <sys/stat.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "test/cli/ToolRunner.h"

namespace shardgen::test {
namespace {

namespace fs = std::filesystem;

struct CachedRun {
  std::string home = makeTempDir();
  std::string cache = home + "/shardgen";

  /// Runs with XDG_CACHE_HOME=home (set in this process, which the tool
  /// inherits, and restored after).
  ToolResult run(const std::string &extra, const std::string &outDir) const {
    const char *before = std::getenv("XDG_CACHE_HOME");
    std::string saved = before ? before : "";
    ::setenv("XDG_CACHE_HOME", home.c_str(), 1);
    ToolResult result = runShardgen("run " + kMlpSample + " -o " + outDir + " " + extra);
    if (before)
      ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else
      ::unsetenv("XDG_CACHE_HOME");
    return result;
  }
  size_t entries() const {
    if (!fs::exists(cache))
      return 0;
    size_t count = 0;
    for (const auto &entry : fs::directory_iterator(cache))
      count += entry.path().extension() == ".obj";
    return count;
  }
};

TEST_CASE("a second run of an unchanged graph uses the cached program and gives the same outputs") {
  CachedRun cached;
  std::string first = makeTempDir() + "/out", second = makeTempDir() + "/out";
  ToolResult a = cached.run("", first);
  REQUIRE_MESSAGE(a.exitCode == 0, a.err);
  // The program's object and the runtime's linker names (so the second run
  // needs no clang at all).
  REQUIRE(cached.entries() == 2);
  CHECK((fs::status(cached.cache).permissions() & fs::perms::all) == fs::perms::owner_all);
  fs::file_time_type written = fs::last_write_time(fs::directory_iterator(cached.cache)->path());

  ToolResult b = cached.run("", second);
  REQUIRE_MESSAGE(b.exitCode == 0, b.err);
  CHECK(cached.entries() == 2);
  CHECK(fs::last_write_time(fs::directory_iterator(cached.cache)->path()) == written);
  CHECK(readFile(first + "/out0.npy") == readFile(second + "/out0.npy"));
}

TEST_CASE("--no-cache neither writes nor needs the cache") {
  CachedRun cached;
  ToolResult result = cached.run("--no-cache", makeTempDir() + "/out");
  REQUIRE_MESSAGE(result.exitCode == 0, result.err);
  CHECK(cached.entries() == 0);
}

TEST_CASE("a cache folder others may write to is not used, with a warning") {
  CachedRun cached;
  fs::create_directories(cached.cache);
  ::chmod(cached.cache.c_str(), 0777);
  ToolResult result = cached.run("", makeTempDir() + "/out");
  REQUIRE_MESSAGE(result.exitCode == 0, result.err);
  CHECK(result.err.find("warning: not using the compile cache " + cached.cache +
                        ": others may write to it") != std::string::npos);
  CHECK(cached.entries() == 0);
}

} // namespace
} // namespace shardgen::test
