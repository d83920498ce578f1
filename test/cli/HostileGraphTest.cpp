// Hostile graphs (test/hostile): custom_call targets naming libc, libstdc++,
// runtime and generated-code symbols, and libraries that reach such symbols
// only through their dependencies. Each is rejected with exit 1, its JSON
// pointer and message, nothing on stdout, and no trace in the working
// directory (a scratch folder with a sentinel file, compared before/after).

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(SHARDGEN_SOURCE_DIR) / "test" / "hostile";
const std::string kLibrary = HOSTILE_CALLS_LIBRARY;
const std::string kTarget = "/ops/0/call_target_name";

/// Every file under `dir` with its contents.
std::map<std::string, std::string> snapshot(const fs::path &dir) {
  std::map<std::string, std::string> files;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    files[entry.path().string()] = entry.is_regular_file() ? readFile(entry.path().string()) : "";
  return files;
}

/// A scratch working directory holding only a sentinel file.
struct Scratch {
  std::string dir = makeTempDir();
  Scratch() { writeFile(dir + "/sentinel.txt", "untouched\n"); }
};

/// Runs `command GRAPH ARGS` in `scratch` and checks the rejection: exit 1,
/// stderr starting with "GRAPH:POINTER: error: " and holding `message`,
/// empty stdout, and the scratch folder exactly as before.
void checkRejected(const Scratch &scratch, const std::string &command, const std::string &graph,
                   const std::string &args, const std::string &pointer,
                   const std::string &message) {
  const auto before = snapshot(scratch.dir);
  const std::string path = (kCorpus / (graph + ".json")).string();
  ToolResult result = runShardgen(command + " '" + path + "' " + args, "", scratch.dir);
  INFO(command, " ", graph, " ", args, ": ", result.err);
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find(path + ":" + pointer + ": error: ") == 0);
  CHECK(result.err.find(message) != std::string::npos);
  CHECK(snapshot(scratch.dir) == before);
}

} // namespace

TEST_CASE("check rejects targets that are keywords, reserved or library and shardgen names") {
  const std::string keyword = "is a C or C++ keyword";
  const std::string reserved = "is reserved for the C and C++ implementation";
  const std::string library = "is a C library function that generated code declares or links "
                              "against";
  const std::string notIdentifier = "is not a C identifier";
  const std::map<std::string, std::string> expected = {
      {"keyword_int", "\"int\" " + keyword},
      {"reserved_double_underscore", "\"__libc_system\" " + reserved},
      {"reserved_underscore_capital", "\"_Exit\" " + reserved},
      {"runtime_mangled", reserved},
      {"libstdcxx_mangled", "\"_ZSt9terminatev\" " + reserved},
      {"libc_memcpy", "\"memcpy\" " + library},
      {"libm_expf", "\"expf\" " + library},
      {"program_main", "\"main\" is the name of the program's entry point"},
      {"generated_entry_point",
       "\"shardgen_hostile_device\" is one of shardgen's own names (shardgen, shardgen_*)"},
      {"stdint_type", "\"int64_t\" is a name <stddef.h> or <stdint.h> defines"},
      {"shell_injection", "\"system; rm -rf .\" " + notIdentifier},
      {"versioned_symbol", "\"remove@GLIBC_2.2.5\" " + notIdentifier},
      {"graph_namespace", "\"hostile\" is the graph's name, which the generated header uses as "
                          "its namespace"}};
  Scratch scratch;
  for (const auto &[graph, message] : expected)
    checkRejected(scratch, "check", graph, "", kTarget, message);
  // Inside a manual_computation body too; and eval/run verify before anything.
  checkRejected(scratch, "check", "body_reserved", "", "/ops/0/body/ops/0/call_target_name",
                "\"__cxa_throw\" " + reserved);
  checkRejected(scratch, "run", "reserved_double_underscore", "--custom-calls '" + kLibrary + "'",
                kTarget, reserved);
  checkRejected(scratch, "eval", "libc_memcpy", "--custom-calls '" + kLibrary + "'", kTarget,
                library);
}

TEST_CASE("eval and run without --custom-calls say to pass one") {
  Scratch scratch;
  for (const std::string command : {"eval", "run"})
    checkRejected(scratch, command, "libc_remove", "", kTarget,
                  "custom_call target \"remove\" has no implementation: pass --custom-calls "
                  "LIB.so, a shared library that defines it");
}

TEST_CASE("libc functions reached only through LIB.so's dependencies are not found in LIB.so") {
  Scratch scratch;
  const std::string args = "--custom-calls '" + kLibrary + "'";
  for (const std::string target : {"remove", "mkdir", "system", "free", "exit"})
    for (const std::string command : {"eval", "run"})
      checkRejected(scratch, command, "libc_" + target, args, kTarget,
                    "custom_call target \"" + target + "\" is not defined in " + kLibrary +
                        " (only in /");
  checkRejected(scratch, "run", "dependency_only", args, kTarget,
                "custom_call target \"dependency_kernel\" is not defined in " + kLibrary +
                    " (only in " + HOSTILE_DEPENDENCY_LIBRARY + ", which it depends on)");
  checkRejected(scratch, "eval", "data_symbol", args, kTarget,
                "custom_call target \"lookup_table\" is not a function in " + kLibrary);
}

TEST_CASE("a custom-call library that cannot be loaded is an error naming the file") {
  Scratch scratch;
  const std::string graph = (kCorpus / "libc_remove.json").string();
  // A bare name is a file in the working directory, never a system library.
  for (const std::string &library :
       {std::string("missing.so"), std::string("libc.so.6"), scratch.dir + "/sentinel.txt"}) {
    const auto before = snapshot(scratch.dir);
    ToolResult result =
        runShardgen("run '" + graph + "' --custom-calls '" + library + "'", "", scratch.dir);
    INFO(library, ": ", result.err);
    CHECK(result.exitCode == 1);
    CHECK(result.out.empty());
    CHECK(result.err.find(library + ": error: cannot load the custom-call library: ") == 0);
    CHECK(snapshot(scratch.dir) == before);
  }
}

TEST_CASE("shardgen run ignores headers planted next to the graph and in the working directory") {
  Scratch scratch;
  for (const char *header : {"kernels/kernels.h", "kernels/elements.h", "shardgen/runtime.h",
                             "shardgen/custom_call.h", "stddef.h", "stdint.h", "mlp.cpp"}) {
    fs::create_directories((fs::path(scratch.dir) / header).parent_path());
    writeFile(scratch.dir + "/" + header, "#error planted\n");
  }
  writeFile(scratch.dir + "/mlp.json",
            readFile(std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlp.json"));
  const auto before = snapshot(scratch.dir);
  ToolResult result = runShardgen("run mlp.json --check", "", scratch.dir);
  INFO(result.err);
  CHECK(result.exitCode == 0);
  CHECK(result.err.find("check passed") != std::string::npos);
  CHECK(result.err.find("planted") == std::string::npos);
  CHECK(snapshot(scratch.dir) == before);
}
