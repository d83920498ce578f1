// A reduce with a general body through the tool, end to end: argmax (two
// inputs, a comparison body, as JAX writes it) with its reduced dim sharded
// on a 2x2 mesh. eval, run --check and the compiled program give the index
// of the unsharded program: ties and NaNs across shards included.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"
#include "test/support/ArgmaxGraph.h"

using namespace shardgen;
using namespace shardgen::test;
using shardgen::testing::argmaxGraph;
namespace fs = std::filesystem;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Rows whose answers cross shards (16 columns: 2 or 4 shards of 8 or 4).
Literal trickyRows() {
  Literal x(TensorType{ElementType::F32, {4, 16}});
  auto set = [&](int64_t row, int64_t column, double v) { x.setFloat(row * 16 + column, v); };
  for (int64_t c = 0; c < 16; ++c) {
    set(0, c, 0);
    set(1, c, static_cast<double>(c % 5));
    set(2, c, -kInf);
    set(3, c, 1);
  }
  set(0, 13, 7); // a tie across shards: the smaller index wins
  set(0, 5, 7);
  set(1, 12, 9); // the maximum in a later shard
  set(3, 2, 5);  // NaNs beat every number; the first NaN wins
  set(3, 14, kNaN);
  set(3, 9, kNaN);
  return x; // row 2 is all -inf: the init's index, 0
}

const std::vector<int64_t> kTokens = {5, 12, 0, 9};

void checkOutputs(const std::string &dir) {
  Literal token = readNpy(dir + "/out0.npy");
  Literal best = readNpy(dir + "/out1.npy");
  for (int64_t row = 0; row < 4; ++row)
    CHECK(token.getInt(row) == kTokens[row]);
  CHECK(best.getFloat(0) == 7);
  CHECK(best.getFloat(1) == 9);
  CHECK(best.getFloat(2) == -kInf);
  CHECK(std::isnan(best.getFloat(3)));
}

} // namespace

TEST_CASE("argmax with its reduced dim sharded: eval, run --check and compile agree, ties too") {
  for (const char *sharding :
       {R"(<@mesh, [{\"data\"}, {\"model\"}]>)", R"(<@mesh, [{}, {\"model\", \"data\"}]>)"}) {
    INFO(sharding);
    std::string work = makeTempDir();
    writeFile(work + "/g.json", argmaxGraph("tensor<4x16xf32>", sharding, "", "[1]",
                                            "tensor<4xf32>", "tensor<4xi32>"));
    writeNpy(work + "/x.npy", trickyRows());
    std::string graph = "'" + work + "/g.json' --inputs '" + work + "/x.npy'";

    ToolResult eval = runShardgen("eval " + graph + " -o '" + work + "/eval'");
    INFO(eval.err);
    REQUIRE(eval.exitCode == 0);
    checkOutputs(work + "/eval");

    // Every output element must equal the interpreter's: exact inputs, a
    // body that only selects (bound 0).
    ToolResult run =
        runShardgen("run " + graph + " --check --verify-spmd --report -o '" + work + "/run'");
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.find("check passed") != std::string::npos);
    checkOutputs(work + "/run");
    // The partials are combined by the body over the reduced dim's axes.
    CHECK(run.out.find("all_reduce") != std::string::npos);

    ToolResult program = runShardgen("partition '" + work + "/g.json'");
    REQUIRE(program.exitCode == 0);
    CHECK(program.out.find("all_reduce<body of /ops/3>") != std::string::npos);
    CHECK(program.out.find("partial<body>") != std::string::npos);

    ToolResult compiled = runShardgen("compile '" + work + "/g.json' -o '" + work + "/gen'");
    INFO(compiled.err);
    REQUIRE(compiled.exitCode == 0);
    std::string device = readFile(work + "/gen/argmax.cpp");
    CHECK(device.find("::apply(") != std::string::npos); // the body, a scalar function
  }
}

TEST_CASE("the MLIR argmax sample as JAX prints it runs sharded and checks") {
  std::string sample = std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlir/argmax.mlir";
  ToolResult run = runShardgen("run '" + sample + "' --check --verify-spmd");
  INFO(run.err);
  CHECK(run.exitCode == 0);
  std::string work = makeTempDir();
  ToolResult mlir = runShardgen("eval '" + sample + "' -o '" + work + "/a'");
  ToolResult json = runShardgen("eval '" + std::string(SHARDGEN_SOURCE_DIR) +
                                "/samples/argmax.json' -o '" + work + "/b'");
  REQUIRE(mlir.exitCode == 0);
  REQUIRE(json.exitCode == 0);
  for (const char *out : {"/out0.npy", "/out1.npy"})
    CHECK(readFile(work + "/a" + out) == readFile(work + "/b" + out));
}
