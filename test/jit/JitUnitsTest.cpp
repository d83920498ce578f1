// compileCppUnits: several translation units, compiled in parallel, in one
// module: a unit calls another's external functions; a symbol no unit
// defines and the host table lacks is an error naming it; each unit is
// cached on its own, so changing one recompiles only that one.
#include "compiler/jit/JitCompiler.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace shardgen {
namespace {

namespace fs = std::filesystem;

std::vector<JitSource> units(int scale) {
  return {{"main.cpp", R"(
            namespace parts { int square(int x); int scaled(int x); }
            extern "C" int run(int x) { return parts::square(x) + parts::scaled(x); })"},
          {"part1.cpp", "namespace parts { int square(int x) { return x * x; } }"},
          {"part2.cpp",
           "namespace parts { int scaled(int x) { return x * " + std::to_string(scale) + "; } }"}};
}

} // namespace

TEST_CASE("units of one module call each other's functions") {
  JitOptions options;
  options.compileThreads = 2;
  auto module = compileCppUnits(units(3), options);
  CHECK(module->lookupFunction<int(int)>("run")(5) == 25 + 15);
}

TEST_CASE("a symbol no unit defines is an error naming it") {
  std::vector<JitSource> broken = units(3);
  broken.pop_back(); // parts::scaled is defined nowhere
  try {
    compileCppUnits(broken, {});
    FAIL("compiled");
  } catch (const JitError &error) {
    CHECK(std::string(error.what()).find("cannot link 'main.cpp'") != std::string::npos);
    CHECK(std::string(error.what()).find("_ZN5parts6scaledEi") != std::string::npos);
  }
}

TEST_CASE("each unit is cached on its own") {
  const fs::path cache =
      fs::temp_directory_path() / ("shardgen-jit-units-test-" + std::to_string(::getpid()));
  fs::create_directories(cache);
  JitOptions options;
  options.cacheDir = cache.string();
  CHECK_FALSE(compileCppUnits(units(3), options)->timings().fromCache);
  auto again = compileCppUnits(units(3), options);
  CHECK(again->timings().fromCache);
  CHECK(again->lookupFunction<int(int)>("run")(2) == 4 + 6);
  // One unit changed: it is compiled, the others come from the cache.
  auto changed = compileCppUnits(units(4), options);
  CHECK_FALSE(changed->timings().fromCache);
  CHECK(changed->lookupFunction<int(int)>("run")(2) == 4 + 8);
  size_t entries = 0;
  for ([[maybe_unused]] const auto &entry : fs::directory_iterator(cache))
    ++entries;
  CHECK(entries == 4); // main, part1, part2 twice
  fs::remove_all(cache);
}

} // namespace shardgen
