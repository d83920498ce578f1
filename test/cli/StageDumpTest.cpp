// --dump-after STAGE and `shardgen partition`: the program after each stage,
// compared byte for byte with the goldens in test/cli/golden/. After a
// deliberate change of a printer, regenerate them with
//   SHARDGEN_UPDATE_GOLDENS=1 build/test/test_cli -tc='*golden*'
// and review the diff.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

static const std::string kSource = std::string(SHARDGEN_SOURCE_DIR) + "/";
static const std::string kGoldens = kSource + "test/cli/golden/";

/// The first line where `actual` and `expected` differ, for the failure message.
static std::string firstDifference(const std::string &actual, const std::string &expected) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < std::min(actual.size(), expected.size()); ++i) {
    if (actual[i] != expected[i])
      break;
    if (actual[i] == '\n')
      ++line, start = i + 1;
  }
  auto lineAt = [&](const std::string &text) {
    return start < text.size() ? text.substr(start, text.find('\n', start) - start) : "<end>";
  };
  return "line " + std::to_string(line) + ":\n  got:      " + lineAt(actual) +
         "\n  expected: " + lineAt(expected);
}

/// `text` must equal the golden file `name` (rewritten instead with
/// SHARDGEN_UPDATE_GOLDENS=1).
static void compareWithGolden(const std::string &text, const std::string &name) {
  std::string path = kGoldens + name;
  const char *update = std::getenv("SHARDGEN_UPDATE_GOLDENS");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    writeFile(path, text);
    MESSAGE("updated " << path);
    return;
  }
  REQUIRE_MESSAGE(std::filesystem::exists(path),
                  path << " is missing: run with SHARDGEN_UPDATE_GOLDENS=1");
  std::string expected = readFile(path);
  CHECK_MESSAGE(text == expected, name << " differs at " << firstDifference(text, expected)
                                       << "\n(SHARDGEN_UPDATE_GOLDENS=1 regenerates it)");
}

/// Runs `shardgen ARGS`, which must print exactly the golden file `name`
/// on stdout and nothing on stderr.
static void checkGolden(const std::string &args, const std::string &name) {
  ToolResult result = runShardgen(args);
  INFO("shardgen ", args, "\n", result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.err.empty());
  compareWithGolden(result.out, name);
}

TEST_CASE("golden: the graph after verify, as JSON (check --dump-after verify)") {
  checkGolden("check " + kSource + "samples/mlp.json --dump-after verify", "mlp.verify.json");
}

TEST_CASE("golden: the graph after propagate, every sharding with its origin") {
  checkGolden("propagate " + kSource + "samples/mlp.json --dump-after=propagate",
              "mlp.propagate.json");
}

TEST_CASE("golden: the partitioned program (run --dump-after partition, shardgen partition)") {
  checkGolden("run " + kSource + "samples/mlp.json --dump-after partition", "mlp.partition.txt");
  // Uneven and empty pieces, device_ids, an all_gather with per-device bytes.
  checkGolden("partition " + kGoldens + "uneven.json", "uneven.partition.txt");
  // all_to_all, collective_permute, reduce_scatter.
  checkGolden("partition " + kGoldens + "collectives.json", "collectives.partition.txt");
}

TEST_CASE("golden: the whole generated program of a sample (compile -o: device code, header, "
          "host side)") {
  // mlp: a fused group, a runtime all_reduce, per-piece scatter and gather,
  // the header's layout tables and the host's shape lookup.
  const std::string dir = makeTempDir() + "/mlp";
  ToolResult result = runShardgen("compile " + kSource + "samples/mlp.json -o '" + dir + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  for (const char *file : {"mlp.cpp", "mlp.h", "mlp_host.cpp", "CMakeLists.txt"}) {
    CAPTURE(file);
    compareWithGolden(readFile(dir + "/" + file), std::string("mlp_program/") + file);
  }
}

TEST_CASE("golden: the generated C++ (compile --dump-after codegen, no -o needed)") {
  checkGolden("compile " + kSource + "samples/nx_sharding.json --dump-after codegen",
              "nx_sharding.codegen.cpp");
}

TEST_CASE("the partitioned program is the same text every time and for every command") {
  std::string graph = kSource + "samples/attention.json";
  ToolResult first = runShardgen("partition " + graph);
  ToolResult again = runShardgen("show " + graph + " --dump-after partition");
  REQUIRE(first.exitCode == 0);
  REQUIRE(again.exitCode == 0);
  CHECK(first.out == again.out);
  CHECK(contains(first.out, "values (global type, sharding -> local type per device):\n"));
}

TEST_CASE("--dump-file writes the dump there and the command goes on") {
  std::string dir = makeTempDir();
  ToolResult result = runShardgen("run " + kSource + "samples/mlp.json --dump-after=partition " +
                                  "--dump-file " + dir + "/program.txt -o " + dir + "/out");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.empty());
  CHECK(readFile(dir + "/program.txt") == readFile(kGoldens + "mlp.partition.txt"));
  CHECK(std::filesystem::exists(dir + "/out/out0.npy"));

  // `partition -o` writes the same text.
  result = runShardgen("partition " + kSource + "samples/mlp.json -o " + dir + "/p.txt");
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.empty());
  CHECK(readFile(dir + "/p.txt") == readFile(kGoldens + "mlp.partition.txt"));
}

TEST_CASE(
    "--dump-after: a stage the command does not run, or --dump-file alone, is a usage error") {
  ToolResult result = runShardgen("check " + kSource + "samples/mlp.json --dump-after partition");
  CHECK(result.exitCode == 2);
  CHECK(result.out.empty());
  CHECK(
      contains(result.err,
               "shardgen check: error: --dump-after takes one of verify here, not 'partition'\n"));
  result = runShardgen("propagate " + kSource + "samples/mlp.json --dump-after codgen");
  CHECK(result.exitCode == 2);
  CHECK(contains(result.err, "--dump-after takes one of verify, propagate here, not 'codgen'"));
  result = runShardgen("run " + kSource + "samples/mlp.json --dump-file x.txt");
  CHECK(result.exitCode == 2);
  CHECK(contains(result.err, "--dump-file needs --dump-after STAGE"));
}

TEST_CASE("--dump-after on bad input: the error, nothing on stdout") {
  std::string dir = makeTempDir();
  writeFile(dir + "/bad.json", R"({"format": "shardgen-graph", "version": 1, "name": "g",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4xf32>", "sharding": "<@m, [{y}]>"}],
    "ops": [], "outputs": [{"value": "a"}]})");
  ToolResult result = runShardgen("partition " + dir + "/bad.json --dump-after verify");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(contains(result.err, dir + "/bad.json:/inputs/0/sharding: error: "));
}

TEST_CASE("partition: names from the graph are quoted and escaped, never raw control characters") {
  std::string dir = makeTempDir();
  writeFile(dir + "/names.json", R"({"format": "shardgen-graph", "version": 1, "name": "n\u001b[2J",
    "meshes": [{"name": "m", "axes": [{"name": "x\u0085", "size": 2}]}],
    "inputs": [{"name": "in put", "type": "tensor<4xf32>", "sharding": "<@m, [{\"x\u0085\"}]>"}],
    "ops": [{"op": "tanh", "operands": ["in put"], "result": "r\u001b[31m"}],
    "outputs": [{"value": "r\u001b[31m"}]})");
  ToolResult result = runShardgen("partition " + dir + "/names.json");
  INFO(result.out, result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.find('\x1b') == std::string::npos);
  CHECK(result.out.find("\xc2\x85") == std::string::npos);
  CHECK(contains(result.out, "// partitioned program \"n\\u001b[2J\""));
  CHECK(contains(result.out, "mesh @m [\"x\\u0085\"=2], 2 devices\n"));
  CHECK(contains(result.out, "  0: %\"r\\u001b[31m\" = tanh(%\"in put\")  // /ops/0\n"));
}
