// shardgen on MLIR text: import/export, .mlir files wherever a graph is
// taken (by extension or by content), `run --check` on the MLIR MLP, errors
// at line:col with exit 1.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen::test;
namespace fs = std::filesystem;

namespace {
std::string sample(const std::string &name) {
  return (fs::path(SHARDGEN_SOURCE_DIR) / "samples" / name).string();
}
} // namespace

TEST_CASE("a malformed MLIR file is refused at its line:col, exit 1, nothing on stdout") {
  // The whole corpus (test/mlir/bad) is checked in-process by test_mlir; here
  // one file goes through the tool.
  fs::path file =
      fs::path(SHARDGEN_SOURCE_DIR) / "test" / "mlir" / "bad" / "replica_groups_no_axes.mlir";
  ToolResult result = runShardgen("check '" + file.string() + "'");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err ==
        file.string() +
            ":4:56: error: replica_groups [[0, 3], [1, 2]] match no set of axes of mesh @mesh\n");
}

TEST_CASE("run --check on the MLIR MLP works like the JSON sample") {
  ToolResult result = runShardgen("run '" + sample("mlir/mlp.mlir") + "' --check");
  INFO(result.err);
  CHECK(result.exitCode == 0);
  CHECK(result.err.find("check passed: 1 outputs agree") != std::string::npos);
}

TEST_CASE("import writes a graph file; export writes MLIR that every command reads") {
  std::string dir = makeTempDir();
  ToolResult imported =
      runShardgen("import '" + sample("mlir/dp_grad_step.mlir") + "' -o " + dir + "/step.json");
  INFO(imported.err);
  REQUIRE(imported.exitCode == 0);
  CHECK(imported.out.empty());
  ToolResult check = runShardgen("check " + dir + "/step.json");
  CHECK(check.exitCode == 0);
  CHECK(check.out.find("ok (3 inputs, 9 ops, 1 outputs, 1 mesh)") != std::string::npos);

  // JSON -> propagate -> export (pretty and generic) -> run.
  REQUIRE(runShardgen("propagate '" + sample("attention.json") + "' -o " + dir + "/prop.json")
              .exitCode == 0);
  for (const char *flag : {"", " --generic"}) {
    ToolResult exported =
        runShardgen("export " + dir + "/prop.json -o " + dir + "/att.mlir" + flag);
    INFO(exported.err);
    REQUIRE(exported.exitCode == 0);
    std::string text = readFile(dir + "/att.mlir");
    CHECK(text.find("sdy.mesh") != std::string::npos);
    ToolResult run = runShardgen("run " + dir + "/att.mlir --check");
    INFO(run.err);
    CHECK(run.exitCode == 0);
  }

  // By content: MLIR on standard input and in a file without .mlir.
  std::string text = readFile(sample("mlir/mlp.mlir"));
  ToolResult fromStdin = runShardgen("check -", text);
  CHECK(fromStdin.exitCode == 0);
  CHECK(fromStdin.out == "<stdin>: ok (5 inputs, 7 ops, 1 outputs, 1 mesh)\n");
  writeFile(dir + "/model.txt", text);
  CHECK(runShardgen("check " + dir + "/model.txt").exitCode == 0);
  // Without -o, export prints the text.
  ToolResult printed = runShardgen("export '" + sample("mlp.json") + "'");
  CHECK(printed.out.find("func.func public @main(%x: tensor<8x16xf32>") != std::string::npos);
}

TEST_CASE("import --function picks the entry; errors of later steps point into the .mlir file") {
  std::string dir = makeTempDir();
  writeFile(dir + "/two.mlir", R"(sdy.mesh @mesh = <["a"=2]>
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func public @other(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  ToolResult other = runShardgen("import " + dir + "/two.mlir --function other");
  INFO(other.err);
  CHECK(other.exitCode == 0);
  CHECK(other.out.find("\"op\": \"add\"") != std::string::npos);
  ToolResult missing = runShardgen("import " + dir + "/two.mlir --function nope");
  CHECK(missing.exitCode == 1);
  CHECK(missing.err ==
        dir + "/two.mlir:1:1: error: no function @nope in the module (it has @main, @other)\n");

  // An input file of the wrong shape: reported at the argument's line:col.
  shardgen::writeNpy(dir + "/in.npy",
                     shardgen::Literal(shardgen::TensorType{shardgen::ElementType::F32, {2}}));
  ToolResult eval =
      runShardgen("eval " + dir + "/two.mlir --inputs " + dir + "/in.npy -o " + dir + "/out");
  CHECK(eval.exitCode == 1);
  CHECK(eval.err.find(dir + "/two.mlir:2:24: error: input \"x\" has type tensor<4xf32>") == 0);
}

TEST_CASE("export refuses a graph with a distribution instead of dropping it") {
  const std::string graph = makeTempDir() + "/distributed.json";
  writeFile(graph, R"({"format": "shardgen-graph", "version": 1, "name": "d",
    "meshes": [{"name": "cores", "axes": [{"name": "c", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<4x3xf32>",
                "distribution": {"mesh": "cores", "shard_shape": [1, 3]}}],
    "ops": [{"op": "negate", "operands": ["x"], "result": "y"}],
    "outputs": [{"value": "y"}]})");
  REQUIRE(runShardgen("check '" + graph + "'").exitCode == 0);
  ToolResult result = runShardgen("export '" + graph + "'");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err == graph + ":/inputs/0/distribution: error: distributions have no MLIR form "
                              "(StableHLO and sdy have none); export the graph without them\n");
}

TEST_CASE("Shardy's printed forms: export --sharding-rules, propagate --format mlir") {
  std::string dir = makeTempDir();
  // No @main: the only public function is the entry, written back by name.
  writeFile(dir + "/f.mlir", R"(sdy.mesh @m = <["a"=2, "b"=2]>
func.func @f(%x: tensor<8x1xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}, %y: tensor<8x1xf32>)
    -> tensor<8x1xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x1xf32>
  %s = stablehlo.add %x, %y : tensor<8x1xf32>
  %p = stablehlo.multiply %s, %c {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {}]>]>} : tensor<8x1xf32>
  return %p : tensor<8x1xf32>
}
)");
  ToolResult rules = runShardgen("export " + dir + "/f.mlir --sharding-rules");
  INFO(rules.err);
  REQUIRE(rules.exitCode == 0);
  CHECK(rules.out.find("func.func @f(%x: tensor<8x1xf32>") != std::string::npos);
  CHECK(rules.out.find("%c = stablehlo.constant dense<1.0> : tensor<8x1xf32>\n") !=
        std::string::npos);
  CHECK(rules.out.find("%s = stablehlo.add %x, %y {sdy.sharding_rule = "
                       "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=1}>} : "
                       "tensor<8x1xf32>\n") != std::string::npos);
  // Attributes in MLIR's order (sorted by name).
  CHECK(rules.out.find("{sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {}]>]>, "
                       "sdy.sharding_rule = #sdy.op_sharding_rule<") != std::string::npos);

  // -o FILE.mlir writes MLIR: the user's closed dims stay closed, propagated
  // dims are open.
  ToolResult propagated =
      runShardgen("propagate " + dir + "/f.mlir --strategy basic -o " + dir + "/p.mlir");
  INFO(propagated.err);
  REQUIRE(propagated.exitCode == 0);
  CHECK(propagated.out.empty());
  std::string text = readFile(dir + "/p.mlir");
  CHECK(text.find("func.func @f(%x: tensor<8x1xf32> {sdy.sharding = #sdy.sharding<@m, "
                  "[{\"a\"}, {}]>}, %y: tensor<8x1xf32> {sdy.sharding = #sdy.sharding<@m, "
                  "[{\"a\", ?}, {?}]>}) -> (tensor<8x1xf32> {sdy.sharding = "
                  "#sdy.sharding<@m, [{\"a\", ?}, {?}]>}) {") != std::string::npos);
  CHECK(text.find("%c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@m, "
                  "[{\"a\", ?}, {?}]>]>} dense<1.0>") != std::string::npos);
  CHECK(text.find("stablehlo.multiply %s, %c {sdy.sharding = #sdy.sharding_per_value<[<@m, "
                  "[{\"a\", ?}, {}]>]>}") != std::string::npos);
  CHECK(text.find("_origin") == std::string::npos);
  // What it prints reads back, and propagating it again changes nothing.
  ToolResult again = runShardgen("propagate " + dir + "/p.mlir --strategy basic --format mlir");
  CHECK(again.exitCode == 0);
  CHECK(again.out == text);
  // --format json keeps the graph file (with origins) whatever -o is named.
  ToolResult json = runShardgen("propagate " + dir + "/f.mlir --format json");
  CHECK(json.out.find("\"_origin\"") != std::string::npos);

  ToolResult bad = runShardgen("propagate " + dir + "/f.mlir --format xml");
  CHECK(bad.exitCode == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("unknown --format 'xml' (expected json or mlir)") != std::string::npos);

  // Two public functions and no @main: no entry to choose.
  writeFile(dir + "/two.mlir", R"(func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
)");
  ToolResult two = runShardgen("export " + dir + "/two.mlir --sharding-rules");
  CHECK(two.exitCode == 1);
  CHECK(two.out.empty());
  CHECK(two.err == dir + "/two.mlir:1:1: error: no function @main in the module (it has @g, @h)\n");
}
