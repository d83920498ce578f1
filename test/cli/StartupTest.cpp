// What the shardgen binary loads, seen through the dynamic loader's own log
// (LD_DEBUG=files): the commands that compile nothing never load clang or
// LLVM, `run` loads the JIT modules from beside the binary only, never from
// LD_LIBRARY_PATH or the working directory (compiler/jit/JitLoader.cpp), and
// a run whose program is in the compile cache loads LLVM but not clang.
#include <sys/wait.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "test/cli/ToolRunner.h"

namespace shardgen::test {
namespace {

namespace fs = std::filesystem;

/// The environment variable `name` set to `value` while in scope.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnv(std::string variable, const std::string &value) : name(std::move(variable)) {
    if (const char *before = std::getenv(name.c_str()))
      saved = before;
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(name.c_str(), saved->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
};

struct LoaderLog {
  ToolResult result;
  std::string files; // every process's LD_DEBUG=files lines
};

/// Runs `shardgen ARGS` with the dynamic loader logging the files it loads
/// (each process of the command line to its own file).
LoaderLog runLogged(const std::string &args, const std::string &workDir = "") {
  std::string logs = makeTempDir();
  LoaderLog log;
  {
    ScopedEnv debug("LD_DEBUG", "files");
    ScopedEnv output("LD_DEBUG_OUTPUT", logs + "/ld");
    log.result = runShardgen(args, "", workDir);
  }
  for (const auto &entry : fs::directory_iterator(logs))
    log.files += readFile(entry.path().string());
  return log;
}

bool loadsClang(const std::string &files) {
  return files.find("libclang-cpp") != std::string::npos ||
         files.find("libshardgen-jit-clang") != std::string::npos;
}

bool loadsLlvm(const std::string &files) {
  return files.find("libLLVM") != std::string::npos ||
         files.find("libclang-cpp") != std::string::npos ||
         files.find("libshardgen-jit") != std::string::npos;
}

} // namespace

TEST_CASE("commands that compile nothing load neither clang nor LLVM") {
  std::string out = makeTempDir();
  for (const std::string &args :
       {std::string("--help"), "check " + kSamples + "mlp.json",
        "propagate " + kSamples + "mlp.json", "explain " + kSamples + "mlp.json h",
        "partition " + kSamples + "mlp.json", "show " + kSamples + "mlp.json",
        "compile " + kSamples + "mlp.json -o " + out + "/gen", "eval " + kSamples + "mlp.json",
        "import " + kSamples + "mlir/mlp.mlir", "export " + kSamples + "mlp.json",
        std::string("run --help")}) {
    CAPTURE(args);
    LoaderLog log = runLogged(args);
    CHECK_MESSAGE(log.result.exitCode == 0, log.result.err);
    REQUIRE(log.files.find("libstdc++") != std::string::npos); // the log is there
    CHECK_FALSE(loadsLlvm(log.files));
  }
}

TEST_CASE("run loads the JIT module beside the binary, not from LD_LIBRARY_PATH or the folder") {
  // A planted module where the environment and the working directory point:
  // loading it would fail (it is no shared object) or run foreign code.
  std::string planted = makeTempDir();
  writeFile(planted + "/libshardgen-jit.so", "not a shared object");
  ScopedEnv path("LD_LIBRARY_PATH", planted);
  LoaderLog log = runLogged("run " + kSamples + "mlp.json --no-cache", planted);
  REQUIRE_MESSAGE(log.result.exitCode == 0, log.result.err);
  fs::path folder = fs::canonical(fs::path(SHARDGEN_BINARY).parent_path());
  CHECK(log.files.find("file=" + (folder / "libshardgen-jit.so").string()) != std::string::npos);
  CHECK(log.files.find("file=" + (folder / "libshardgen-jit-clang.so").string()) !=
        std::string::npos);
  CHECK(log.files.find("file=" + planted + "/libshardgen-jit") == std::string::npos);
  CHECK(loadsLlvm(log.files));
}

TEST_CASE("a copy of the binary without its JIT module says so and exits 1, not 4") {
  // An installation problem, not a bug in shardgen: what to do, exit 1.
  std::string folder = makeTempDir();
  fs::copy_file(SHARDGEN_BINARY, folder + "/shardgen");
  const std::string command = "'" + folder + "/shardgen' run '" + kSamples +
                              "mlp.json' --no-cache -o '" + folder + "/out' 2>'" + folder +
                              "/err' >/dev/null";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  ToolResult result;
  result.err = readFile(folder + "/err");
  CHECK(result.err.find("\nshardgen: error: cannot find the JIT module (shardgen's clang and "
                        "LLVM part) at " +
                        folder + "/libshardgen-jit.so") != std::string::npos);
  CHECK(result.err.find("not a copy of the binary alone") != std::string::npos);
  CHECK_FALSE(fs::exists(folder + "/out"));
}

TEST_CASE("a JIT module others may write to, or not one, is not loaded: exit 1") {
  // A copy of the binary in <dir>/bin finds <dir>/lib/shardgen/ (the
  // installed layout): a module planted there by another user would run.
  std::string folder = makeTempDir();
  fs::create_directories(folder + "/bin");
  fs::create_directories(folder + "/lib/shardgen");
  fs::copy_file(SHARDGEN_BINARY, folder + "/bin/shardgen");
  const std::string module = folder + "/lib/shardgen/libshardgen-jit.so";
  writeFile(module, "not a shared object");
  auto runCopy = [&] {
    const std::string command = "'" + folder + "/bin/shardgen' run '" + kSamples +
                                "mlp.json' --no-cache 2>'" + folder + "/err' >/dev/null";
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    return readFile(folder + "/err");
  };
  fs::permissions(module, fs::perms::all);
  CHECK(runCopy().find("shardgen: error: not loading the JIT module " + module +
                       ": it is code this process would run, and others may write to " + module) !=
        std::string::npos);
  fs::permissions(module, fs::perms::owner_read | fs::perms::owner_write);
  fs::permissions(folder + "/lib/shardgen", fs::perms::all);
  CHECK(runCopy().find("and others may write to " + folder + "/lib/shardgen\n") !=
        std::string::npos);
  fs::permissions(folder + "/lib/shardgen", fs::perms::owner_all);
  CHECK(runCopy().find("shardgen: error: cannot load the JIT module: ") != std::string::npos);
}

TEST_CASE("a run whose program is in the compile cache loads LLVM but not clang") {
  std::string home = makeTempDir();
  ScopedEnv cache("XDG_CACHE_HOME", home);
  std::string run = "run " + kSamples + "attention.json";
  LoaderLog cold = runLogged(run);
  REQUIRE_MESSAGE(cold.result.exitCode == 0, cold.result.err);
  CHECK(loadsClang(cold.files));
  LoaderLog warm = runLogged(run);
  REQUIRE_MESSAGE(warm.result.exitCode == 0, warm.result.err);
  CHECK(warm.result.out == cold.result.out);
  CHECK(loadsLlvm(warm.files));
  CHECK_FALSE(loadsClang(warm.files));
}

} // namespace shardgen::test
