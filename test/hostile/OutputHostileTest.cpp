// Hostile setups, round three: output folders (issue 27). `-o` naming a
// mount point works (the files are staged inside the target, on its file
// system: a rename across file systems fails), and a failure leaves nothing
// behind: no staging folder, no folders made for the target's parent, no
// empty skeleton of the generated project. The mount cases need root (a
// tmpfs is mounted for them) and are skipped otherwise.

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>

#include "test/hostile/HostileSupport.h"

using namespace shardgen::test;
namespace fs = std::filesystem;

namespace {

/// A tmpfs of `size` mounted on a fresh folder, unmounted at the end; empty
/// path when this process may not mount.
struct Tmpfs {
  std::string path;
  explicit Tmpfs(const std::string &size) {
    std::string dir = makeTempDir() + "/mnt";
    fs::create_directory(dir);
    if (::geteuid() == 0 &&
        ::mount("tmpfs", dir.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0)
      path = dir;
  }
  ~Tmpfs() {
    if (!path.empty())
      ::umount2(path.c_str(), MNT_DETACH);
  }
};

/// Every path under `dir`, relative.
std::set<std::string> listing(const std::string &dir) {
  std::set<std::string> paths;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    paths.insert(fs::relative(entry.path(), dir).string());
  return paths;
}

} // namespace

TEST_CASE("-o naming a mount point works for eval, run and compile") {
  Tmpfs mount("64m");
  if (mount.path.empty())
    return; // not root: nothing to mount
  checkResult(runShardgenWithin(120, "eval '" + kMlpSample + "' -o '" + mount.path + "'"), 0);
  CHECK(fs::is_regular_file(mount.path + "/out0.npy"));
  checkResult(runShardgenWithin(120, "run '" + kMlpSample + "' -o '" + mount.path + "'"), 0);
  checkResult(runShardgenWithin(120, "compile '" + kMlpSample + "' -o '" + mount.path + "'"), 0);
  CHECK(fs::is_regular_file(mount.path + "/mlp.h"));
  CHECK(fs::is_regular_file(mount.path + "/CMakeLists.txt"));
  for (const std::string &path : listing(mount.path))
    CHECK(path.find(".partial-") == std::string::npos); // no staging folder left
}

TEST_CASE("a full disk leaves nothing behind, not even the folders made for -o") {
  Tmpfs mount("96k");
  if (mount.path.empty())
    return;
  ToolResult result =
      runShardgenWithin(120, "compile '" + kMlpSample + "' -o '" + mount.path + "/a/b/gen'");
  checkResult(result, 1);
  CHECK(result.err.find("No space left on device") != std::string::npos);
  CHECK(listing(mount.path).empty());
}

TEST_CASE("a commit that fails leaves the existing folder as it was") {
  // Into an existing folder where a file must go, a folder is in the way.
  std::string target = makeTempDir() + "/gen";
  fs::create_directories(target + "/mlp.h");
  writeFile(target + "/keep.txt", "mine\n");
  auto before = listing(target);
  ToolResult result = runShardgenWithin(120, "compile '" + kMlpSample + "' -o '" + target + "'");
  checkResult(result, 1);
  CHECK(result.err.find("mlp.h: error: cannot replace it: Is a directory") != std::string::npos);
  CHECK(listing(target) == before);
}

TEST_CASE("a subfolder of the output on another file system fails with nothing changed") {
  std::string outputs = makeTempDir() + "/out";
  checkResult(runShardgenWithin(120, "compile '" + kMlpSample + "' -o '" + outputs + "'"), 0);
  std::string sub;
  for (const auto &entry : fs::directory_iterator(outputs))
    if (entry.is_directory())
      sub = entry.path().filename().string();
  REQUIRE_FALSE(sub.empty());
  Tmpfs probe("1m");
  if (probe.path.empty())
    return;
  std::string target = makeTempDir() + "/gen";
  fs::create_directories(target + "/" + sub);
  writeFile(target + "/keep.txt", "mine\n");
  REQUIRE(::mount("tmpfs", (target + "/" + sub).c_str(), "tmpfs", 0, "size=16m") == 0);
  auto before = listing(target);
  ToolResult result = runShardgenWithin(120, "compile '" + kMlpSample + "' -o '" + target + "'");
  checkResult(result, 1);
  CHECK(result.err.find("cannot write into it: it is on another file system") != std::string::npos);
  CHECK(listing(target) == before);
  ::umount2((target + "/" + sub).c_str(), MNT_DETACH);
}

TEST_CASE("a failure before anything is written makes no folder") {
  std::string base = makeTempDir();
  std::string bad = base + "/bad.json";
  writeFile(bad, "{");
  checkResult(runShardgenWithin(60, "eval '" + bad + "' -o '" + base + "/x/y/out'"), 1);
  checkResult(runShardgenWithin(60, "compile '" + bad + "' -o '" + base + "/x/y/gen'"), 1);
  CHECK(listing(base) == std::set<std::string>{"bad.json"});
}

TEST_CASE("a single-file output that is a device, a FIFO or /dev/stdout is written into, not "
          "replaced") {
  // The file was written beside the output and renamed over it: as root,
  // `propagate -o /dev/null` replaced /dev/null with a regular file (red
  // team round six), and a FIFO's reader got nothing.
  std::string base = makeTempDir();
  std::string fifo = base + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // The reader: opening blocks until the tool opens the FIFO to write.
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  ToolResult viaFifo = runShardgenWithin(60, "propagate '" + kMlpSample + "' -o '" + fifo + "'");
  if (viaFifo.exitCode != 0) // the tool never opened it: let the reader go
    std::ofstream(fifo, std::ios::binary).flush();
  reader.join();
  checkResult(viaFifo, 0);
  CHECK(fs::is_fifo(fifo));
  CHECK(got.find("\"format\": \"shardgen-graph\"") != std::string::npos);

  ToolResult viaStdout = runShardgenWithin(60, "propagate '" + kMlpSample + "' -o /dev/stdout");
  checkResult(viaStdout, 0);
  CHECK(viaStdout.out.find("\"format\": \"shardgen-graph\"") != std::string::npos);
  CHECK(fs::is_symlink("/dev/stdout"));

  if (::geteuid() != 0)
    return; // a device node of our own needs root
  std::string null = base + "/null";
  REQUIRE(::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0);
  checkResult(runShardgenWithin(60, "propagate '" + kMlpSample + "' -o '" + null + "'"), 0);
  CHECK(fs::is_character_file(null));
  checkResult(runShardgenWithin(60, "show '" + kMlpSample + "' --html '" + null + "'"), 0);
  CHECK(fs::is_character_file(null));
}
