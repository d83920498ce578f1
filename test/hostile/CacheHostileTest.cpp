// Hostile input, round three: the compile cache (issue 27). An entry that
// fails to load for any reason is a miss: `run` removes it, compiles again,
// stores a good entry and says so in one warning line; it never exits 4 and
// never hangs. Entries tried: a FIFO (open would block), a symlink to
// /dev/zero (read would never end), a directory, a sparse 2 GiB file, random
// bytes, a truncated entry, a changed symbol in the runtime's linker-name
// probe (whose list later modules link against), and a valid header and
// checksum around a damaged object (the JIT cannot load it). Time limits are
// the harness's.

#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "compiler/jit/ObjectCache.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen::test;
namespace fs = std::filesystem;

namespace {

/// A cache of its own (XDG_CACHE_HOME).
struct Cache {
  std::string home = makeTempDir();
  std::string folder = home + "/shardgen";

  ToolResult run() const {
    std::string out = makeTempDir() + "/out";
    ToolResult result = runShardgenWithin(120, "run '" + kMlpSample + "' -o '" + out + "'",
                                          "export XDG_CACHE_HOME='" + home + "';");
    result.out = readFile(out + "/out0.npy");
    return result;
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> found;
    for (const auto &entry : fs::directory_iterator(folder))
      found.push_back(entry.path());
    return found;
  }
};

/// One clean run, its program's cache entry's name and bytes, and the
/// runtime's linker-name probe's entry (an entry without an object), made
/// once, then copied.
struct CleanRun {
  ToolResult result;
  std::string entryName, entry;
  std::string probeName, probe;
};

const CleanRun &cleanRun() {
  static const CleanRun clean = [] {
    Cache cache;
    CleanRun run{cache.run(), "", "", "", ""};
    REQUIRE_MESSAGE(run.result.exitCode == 0, run.result.err);
    REQUIRE(cache.entries().size() == 2);
    for (const fs::path &path : cache.entries()) {
      std::string bytes = readFile(path.string()), problem;
      auto decoded = shardgen::jit::decodeCacheEntry(bytes, path.stem().string(), problem);
      REQUIRE_MESSAGE(decoded, problem);
      (decoded->object.empty() ? run.probeName : run.entryName) = path.filename().string();
      (decoded->object.empty() ? run.probe : run.entry) = bytes;
    }
    REQUIRE(!run.entryName.empty());
    REQUIRE(!run.probeName.empty());
    return run;
  }();
  return clean;
}

size_t countLines(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

/// Which entry of the clean run a case damages.
enum class Damaged { Program, Probe };

/// A cache holding what `damage` makes of one of the clean run's entries
/// (given its path and good bytes) and the other one intact; runs and
/// checks: exit 0, the clean run's outputs, one warning line holding
/// `reason`, and the good entry in its place.
void checkDamagedEntry(const std::string &reason,
                       const std::function<void(const fs::path &, const std::string &)> &damage,
                       Damaged which = Damaged::Program) {
  const CleanRun &clean = cleanRun();
  Cache cache;
  fs::create_directory(cache.folder);
  fs::permissions(cache.folder, fs::perms::owner_all);
  const bool probeDamaged = which == Damaged::Probe;
  const fs::path entry =
      fs::path(cache.folder) / (probeDamaged ? clean.probeName : clean.entryName);
  const fs::path intact =
      fs::path(cache.folder) / (probeDamaged ? clean.entryName : clean.probeName);
  const std::string &good = probeDamaged ? clean.probe : clean.entry;
  writeFile(intact.string(), probeDamaged ? clean.entry : clean.probe);
  fs::permissions(intact, fs::perms::owner_read | fs::perms::owner_write);
  damage(entry, good);

  ToolResult damaged = cache.run();
  INFO(reason, ": ", damaged.err);
  REQUIRE_FALSE(damaged.timedOut);
  CHECK(damaged.exitCode == 0);
  CHECK(damaged.out == clean.result.out);
  CHECK(countLines(damaged.err, "shardgen: warning: ") == 1);
  CHECK(damaged.err.find("shardgen: warning: compile cache entry " + entry.string()) !=
        std::string::npos);
  CHECK(damaged.err.find(reason) != std::string::npos);
  REQUIRE(cache.entries().size() == 2); // rebuilt, no temporary file left
  CHECK(fs::is_regular_file(fs::symlink_status(entry)));
  CHECK(readFile(entry.string()) == good);
}

/// The entry's bytes with its object replaced by `object` (header and
/// checksum made to match: only the JIT can tell).
std::string withObject(const fs::path &entry, const std::string &good, std::string object) {
  std::string key = entry.stem().string(), problem;
  auto decoded = shardgen::jit::decodeCacheEntry(good, key, problem);
  REQUIRE_MESSAGE(decoded, problem);
  decoded->object = std::move(object);
  return shardgen::jit::encodeCacheEntry(key, *decoded);
}

} // namespace

TEST_CASE("a FIFO in place of an entry is a miss, not a hang") {
  checkDamagedEntry("it is not a regular file; removed it", [](const fs::path &entry, auto &) {
    REQUIRE(::mkfifo(entry.c_str(), 0600) == 0);
  });
}

TEST_CASE("a symlink to /dev/zero in place of an entry is a miss, not an endless read") {
  checkDamagedEntry("it is a symlink; removed it",
                    [](const fs::path &entry, auto &) { fs::create_symlink("/dev/zero", entry); });
}

TEST_CASE("a folder in place of an entry is a miss") {
  checkDamagedEntry("it is not a regular file; removed it",
                    [](const fs::path &entry, auto &) { fs::create_directory(entry); });
}

TEST_CASE("an entry larger than any is not read") {
  checkDamagedEntry("it is larger than any entry", [](const fs::path &entry, auto &) {
    std::ofstream(entry).close();
    fs::resize_file(entry, std::uintmax_t(2) << 30); // sparse
  });
}

TEST_CASE("random bytes, a truncated entry and a changed object are misses") {
  checkDamagedEntry("not an entry of this shardgen's format", [](const fs::path &entry, auto &) {
    std::string noise(100000, '\0');
    for (size_t i = 0; i < noise.size(); ++i)
      noise[i] = static_cast<char>((i * 2654435761u) >> 13);
    writeFile(entry.string(), noise);
  });
  checkDamagedEntry("it is truncated or has a damaged size",
                    [](const fs::path &entry, const std::string &good) {
                      writeFile(entry.string(), good.substr(0, good.size() - 1000));
                    });
  checkDamagedEntry("it does not match its checksum; removed it",
                    [](const fs::path &entry, std::string good) {
                      good[good.size() - 500] ^= 0x40;
                      writeFile(entry.string(), good);
                    });
}

TEST_CASE("a changed symbol in the linker-name probe's entry is a miss, not exit 4") {
  // The probe's entry has no object: its symbol list is all it holds, and
  // later modules link against it (the checksum covers the header too).
  checkDamagedEntry(
      "it does not match its checksum; removed it",
      [](const fs::path &entry, std::string good) {
        size_t symbol = good.find("\n_Z");
        REQUIRE(symbol != std::string::npos);
        good[symbol + 5] ^= 0x01;
        writeFile(entry.string(), good);
      },
      Damaged::Probe);
}

TEST_CASE("a damaged object inside a valid header and checksum is a miss, not exit 4") {
  // What the JIT's linker refuses: not an object, half an object, an object
  // with its section table overwritten.
  checkDamagedEntry("could not be loaded", [](const fs::path &entry, const std::string &good) {
    writeFile(entry.string(), withObject(entry, good, "not an object file at all"));
  });
  checkDamagedEntry("could not be loaded", [](const fs::path &entry, const std::string &good) {
    std::string key = entry.stem().string(), problem;
    std::string object = shardgen::jit::decodeCacheEntry(good, key, problem)->object;
    writeFile(entry.string(), withObject(entry, good, object.substr(0, 64)));
  });
}

TEST_CASE("an entry of another user is a miss (as root)") {
  if (::geteuid() != 0)
    return; // only root can give a file away
  checkDamagedEntry("it belongs to another user; removed it",
                    [](const fs::path &entry, const std::string &good) {
                      writeFile(entry.string(), good);
                      REQUIRE(::chown(entry.c_str(), 65534, 65534) == 0);
                    });
}

TEST_CASE("a rebuilt entry is used by the next run, quietly") {
  Cache cache;
  fs::create_directory(cache.folder);
  fs::permissions(cache.folder, fs::perms::owner_all);
  ::mkfifo((cache.folder + "/" + cleanRun().entryName).c_str(), 0600);
  CHECK(cache.run().err.find("warning") != std::string::npos);
  ToolResult again = cache.run();
  CHECK(again.exitCode == 0);
  CHECK(again.err.find("warning") == std::string::npos);
  CHECK(again.out == cleanRun().result.out);
}

TEST_CASE("a cache folder that is a symlink, or another user's, is not used") {
  Cache cache;
  std::string real = makeTempDir();
  ::chmod(real.c_str(), 0700);
  fs::create_directory_symlink(real, cache.folder);
  ToolResult linked = cache.run();
  CHECK(linked.exitCode == 0);
  CHECK(linked.err.find("warning: not using the compile cache " + cache.folder +
                        ": it is not a folder") != std::string::npos);
  CHECK(fs::is_empty(real));
  if (::geteuid() != 0)
    return;
  fs::remove(cache.folder);
  fs::create_directory(cache.folder);
  ::chmod(cache.folder.c_str(), 0700);
  REQUIRE(::chown(cache.folder.c_str(), 65534, 65534) == 0);
  ToolResult foreign = cache.run();
  CHECK(foreign.exitCode == 0);
  CHECK(foreign.err.find("warning: not using the compile cache " + cache.folder +
                         ": it belongs to another user") != std::string::npos);
  CHECK(fs::is_empty(cache.folder));
}
