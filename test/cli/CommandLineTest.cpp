// The command line as users and other tools see it (spec "Command line").

#include <doctest/doctest.h>

#include <filesystem>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen;
using namespace shardgen::test;

TEST_CASE("shardgen --help lists the commands; no command is a usage error") {
  ToolResult help = runShardgen("--help");
  CHECK(help.exitCode == 0);
  CHECK(help.out.find("check") != std::string::npos);
  CHECK(help.out.find("eval") != std::string::npos);
  CHECK(runShardgen("").exitCode == 2);
  ToolResult unknown = runShardgen("frobnicate");
  CHECK(unknown.exitCode == 2);
  CHECK(unknown.err.find("unknown command 'frobnicate'") != std::string::npos);
}

TEST_CASE("every command has --help") {
  for (const char *command : {"check", "propagate", "explain", "eval", "run", "compile"}) {
    ToolResult help = runShardgen(std::string(command) + " --help");
    CHECK(help.exitCode == 0);
    CHECK(help.out.find(std::string("usage: shardgen ") + command) != std::string::npos);
  }
}

TEST_CASE("bad command lines exit 2") {
  CHECK(runShardgen("check").exitCode == 2);
  CHECK(runShardgen("check a.json b.json").exitCode == 2);
  CHECK(runShardgen("check --bogus " + kSamples + "mlp.json").exitCode == 2);
  CHECK(runShardgen("eval " + kSamples + "mlp.json -o").exitCode == 2);
  // One .npy per graph input: mlp has five.
  ToolResult few = runShardgen("eval " + kSamples + "mlp.json --inputs a.npy");
  CHECK(few.exitCode == 2);
  CHECK(few.err.find("one .npy file per graph input") != std::string::npos);
}

TEST_CASE("check accepts every sample") {
  for (const auto &entry : std::filesystem::directory_iterator(kSamples)) {
    if (entry.path().extension() != ".json")
      continue;
    ToolResult result = runShardgen("check '" + entry.path().string() + "'");
    INFO(entry.path().string(), result.err);
    CHECK(result.exitCode == 0);
    CHECK(result.out.find(": ok (") != std::string::npos);
  }
}

TEST_CASE("check reads standard input for '-'") {
  ToolResult result = runShardgen("check -", readFile(kSamples + "mlp.json"));
  CHECK(result.exitCode == 0);
  CHECK(result.out.find("<stdin>: ok") == 0);
}

TEST_CASE("errors print FILE:POINTER: error: MESSAGE and exit 1") {
  std::string dir = makeTempDir();
  std::string path = dir + "/bad.json";
  writeFile(path, R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4xf32>"}],
    "ops": [{"op": "frobnicate", "operands": ["a"], "result": "b"}],
    "outputs": [{"value": "b"}]})");
  ToolResult result = runShardgen("check '" + path + "'");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find(path + ":/ops/0/op: error: ") == 0);
  CHECK(result.err.find("unknown op \"frobnicate\"") != std::string::npos);
}

TEST_CASE("a missing graph file is an error naming it, not a crash") {
  ToolResult result = runShardgen("check /nonexistent/graph.json");
  CHECK(result.exitCode == 1);
  CHECK(result.err.find("/nonexistent/graph.json:") == 0);
}

TEST_CASE("eval runs the Nx example to the values worked out by hand") {
  // Hand computation (see samples/nx_sharding.json): transpose(l + 1) contracted
  // with (r - 1) over its two leading dims.
  std::string dir = makeTempDir();
  ToolResult result = runShardgen("eval " + kSamples + "nx_sharding.json --inputs " + kSamples +
                                  "nx_sharding.inputs/arg0.npy " + kSamples +
                                  "nx_sharding.inputs/arg1.npy -o '" + dir + "/out'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  Literal out = readNpy(dir + "/out/out0.npy");
  CHECK(out.type() == TensorType{ElementType::F32, {2, 2}});
  CHECK(out.as<float>()[0] == 319.0f);
  CHECK(out.as<float>()[1] == 340.0f);
  CHECK(out.as<float>()[2] == 823.0f);
  CHECK(out.as<float>()[3] == 880.0f);
}

TEST_CASE("eval without -o prints the outputs") {
  ToolResult result =
      runShardgen("eval " + kSamples + "nx_sharding.json --inputs " + kSamples +
                  "nx_sharding.inputs/arg0.npy " + kSamples + "nx_sharding.inputs/arg1.npy");
  CHECK(result.exitCode == 0);
  CHECK(result.out == "out0: tensor<2x2xf32>\n[[319, 340],\n [823, 880]]\n");
}

TEST_CASE("an input of the wrong type is rejected at the input, and nothing is written") {
  std::string dir = makeTempDir();
  // arg1.npy (1x1x3x2x2) given for l (2x2x3).
  ToolResult result = runShardgen("eval " + kSamples + "nx_sharding.json --inputs " + kSamples +
                                  "nx_sharding.inputs/arg1.npy " + kSamples +
                                  "nx_sharding.inputs/arg1.npy -o '" + dir + "/out'");
  CHECK(result.exitCode == 1);
  CHECK(result.err.find(":/inputs/0: error: input \"l\" has type tensor<2x2x3xf32>") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/out/out0.npy"));
}

TEST_CASE("a file that is not .npy is rejected naming the file") {
  std::string dir = makeTempDir();
  writeFile(dir + "/junk.npy", "not numpy at all");
  ToolResult result = runShardgen("eval " + kSamples + "nx_sharding.json --inputs '" + dir +
                                  "/junk.npy' " + kSamples + "nx_sharding.inputs/arg1.npy");
  CHECK(result.exitCode == 1);
  CHECK(result.err.find(dir + "/junk.npy: error: ") == 0);
}

TEST_CASE("propagate writes a graph that propagates to itself") {
  std::string dir = makeTempDir();
  ToolResult first = runShardgen("propagate " + kSamples + "mlp.json -o '" + dir + "/p1.json'");
  INFO(first.err);
  REQUIRE(first.exitCode == 0);
  CHECK(first.out.empty());
  std::string once = readFile(dir + "/p1.json");
  // The first matmul's result takes the batch split of x and the column split of w1.
  CHECK(once.find(R"("sharding": "<@mesh, [{\"data\"}, {\"model\"}]>")") != std::string::npos);
  ToolResult second = runShardgen("propagate '" + dir + "/p1.json'");
  REQUIRE(second.exitCode == 0);
  CHECK(second.out == once);
  ToolResult check = runShardgen("check '" + dir + "/p1.json'");
  CHECK(check.exitCode == 0);
}

TEST_CASE("an unknown --strategy is a usage error") {
  ToolResult result = runShardgen("propagate " + kSamples + "mlp.json --strategy fastest");
  CHECK(result.exitCode == 2);
  CHECK(result.err.find("unknown --strategy 'fastest'") != std::string::npos);
}

TEST_CASE("explain names where a sharding came from; an unknown value is an error") {
  ToolResult result = runShardgen("explain " + kSamples + "mlp.json h");
  INFO(result.err);
  CHECK(result.exitCode == 0);
  CHECK(result.out.find("/inputs/") != std::string::npos);
  ToolResult unknown = runShardgen("explain " + kSamples + "mlp.json nosuchvalue");
  CHECK(unknown.exitCode == 1);
  CHECK(unknown.err.find("nosuchvalue") != std::string::npos);
}

TEST_CASE("run partitions the Nx example over 4 devices and gets the hand-computed values") {
  std::string dir = makeTempDir();
  ToolResult result = runShardgen("run " + kSamples + "nx_sharding.json --check --inputs " +
                                  kSamples + "nx_sharding.inputs/arg0.npy " + kSamples +
                                  "nx_sharding.inputs/arg1.npy -o '" + dir + "/out'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.err.find("check passed") != std::string::npos);
  CHECK(result.err.find("on 4 devices") != std::string::npos);
  Literal out = readNpy(dir + "/out/out0.npy");
  CHECK(std::vector<float>(out.as<float>(), out.as<float>() + 4) ==
        std::vector<float>{319, 340, 823, 880});
}

TEST_CASE("the MLP's manifest shows exactly one all_reduce, of y0's local piece") {
  std::string dir = makeTempDir();
  ToolResult result = runShardgen("compile " + kSamples + "mlp.json --report -o '" + dir + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.find("1 collective(s) on 4 device(s)") != std::string::npos);
  // y0 = h . w2 is partial over "model"; each device all-reduces its 4x16 f32 piece.
  CHECK(result.out.find("all_reduce          {\"model\"}     /ops/4") != std::string::npos);
  CHECK(result.out.find("d0: 256/256  d1: 256/256  d2: 256/256  d3: 256/256") != std::string::npos);
  CHECK(std::filesystem::exists(dir + "/mlp.h"));
  CHECK(std::filesystem::exists(dir + "/CMakeLists.txt"));
}

TEST_CASE("compile without -o is a usage error and writes nothing") {
  ToolResult result = runShardgen("compile " + kSamples + "mlp.json");
  CHECK(result.exitCode == 2);
}

TEST_CASE("value names with quotes and control characters survive propagate and run") {
  // Names are arbitrary JSON strings: they must come out as valid JSON in
  // "_origin" and as valid C++ in the generated program.
  std::string dir = makeTempDir();
  std::string path = dir + "/names.json";
  writeFile(path, R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a\"b\nc\\", "type": "tensor<4xf32>", "sharding": "<@mesh, [{x}]>"}],
    "ops": [{"op": "negate", "operands": ["a\"b\nc\\"], "result": "t\tab"}],
    "outputs": [{"value": "t\tab"}]})");
  ToolResult propagated = runShardgen("propagate '" + path + "' -o '" + dir + "/p.json'");
  INFO(propagated.err);
  REQUIRE(propagated.exitCode == 0);
  CHECK(runShardgen("check '" + dir + "/p.json'").exitCode == 0);
  ToolResult run = runShardgen("run '" + path + "' --check");
  INFO(run.err);
  CHECK(run.exitCode == 0);
}

TEST_CASE("run --check: within the computed bound; --atol/--rtol replace it; exit 3 names "
          "the element, both values and the bound") {
  // tanh(0.535843611f): the generated (vectorized) f32 tanh is 2 ulp from
  // libm's, within the bound (8 ulp) but not bit-exact.
  std::string dir = makeTempDir();
  writeFile(dir + "/tanh.json", R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<2xf32>", "sharding": "<@m, [{x}]>"}],
    "ops": [{"op": "tanh", "operands": ["a"], "result": "y"}],
    "outputs": [{"value": "y"}]})");
  Literal input(TensorType{ElementType::F32, {2}});
  input.as<float>()[0] = 0.0f; // tanh(+0) = +0 exactly
  input.as<float>()[1] = 0x1.125a18p-1f;
  writeNpy(dir + "/a.npy", input);
  const std::string run = "run '" + dir + "/tanh.json' --inputs '" + dir + "/a.npy' --check";
  ToolResult passed = runShardgen(run);
  INFO(passed.err);
  CHECK(passed.exitCode == 0);
  CHECK(passed.err.find("check passed") != std::string::npos);

  ToolResult exact = runShardgen(run + " --atol 0");
  INFO(exact.err);
  CHECK(exact.exitCode == 3);
  CHECK(exact.err.find("check failed: output 0 (y) differs at index [1]: got 0.4898") !=
        std::string::npos);
  CHECK(exact.err.find(", expected 0.489835352, allowed difference 0 (reference interpreter)") !=
        std::string::npos);

  CHECK(runShardgen(run + " --rtol 1e-6").exitCode == 0);
  ToolResult bad = runShardgen(run + " --rtol -1");
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.find("--rtol needs a finite non-negative number, not '-1'") != std::string::npos);
  CHECK(bad.out.empty());
}
