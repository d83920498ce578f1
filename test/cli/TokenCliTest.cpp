// Tokens through the tool on a 2x2 mesh: a token input takes no .npy file,
// a token output is printed as its type and has no file with -o (the other
// outputs keep their numbers), eval and run --check agree on the data the
// tokens travel beside, and the tool's errors (a file count that counts a
// token, an op doing I/O) name what is wrong.

#include <doctest/doctest.h>

#include <filesystem>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen;
using namespace shardgen::test;

namespace token_cli {

const char *kTokenLoop =
    R"(module @jit_tokens attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: !stablehlo.token, %arg1: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (!stablehlo.token, tensor<4x6xf32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c, %iterArg_1 = %arg1) : !stablehlo.token, tensor<i32>, tensor<4x6xf32>
     cond {
      %c_1 = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg_0, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_0, %c_1 : tensor<i32>
      %2 = stablehlo.multiply %iterArg_1, %iterArg_1 : tensor<4x6xf32>
      %3 = stablehlo.after_all %iterArg : !stablehlo.token
      stablehlo.return %3, %1, %2 : !stablehlo.token, tensor<i32>, tensor<4x6xf32>
    }
    return %0#0, %0#2 : !stablehlo.token, tensor<4x6xf32>
  }
}
)";

Literal loopInput() {
  Literal x(TensorType{ElementType::F32, {4, 6}});
  for (int64_t i = 0; i < x.numElements(); ++i)
    x.setFloat(i, 0.25 * static_cast<double>(i % 7) - 0.5);
  return x;
}

} // namespace token_cli

using namespace token_cli;

TEST_CASE("tokens through eval and run: no file in, none out, the data agrees") {
  std::string work = makeTempDir();
  writeFile(work + "/g.mlir", kTokenLoop);
  writeNpy(work + "/x.npy", loopInput());
  std::string graph = "'" + work + "/g.mlir' --inputs '" + work + "/x.npy'";

  ToolResult shown = runShardgen("eval " + graph);
  INFO(shown.err);
  REQUIRE(shown.exitCode == 0);
  CHECK(shown.out.starts_with("out0: !stablehlo.token\nout1: tensor<4x6xf32>\n"));

  ToolResult eval = runShardgen("eval " + graph + " -o '" + work + "/eval'");
  INFO(eval.err);
  REQUIRE(eval.exitCode == 0);
  CHECK_FALSE(std::filesystem::exists(work + "/eval/out0.npy"));
  Literal squared = readNpy(work + "/eval/out1.npy");
  for (int64_t i = 0; i < squared.numElements(); ++i) {
    const double x = 0.25 * static_cast<double>(i % 7) - 0.5;
    CHECK(squared.getFloat(i) == doctest::Approx(x * x * x * x));
  }

  ToolResult run = runShardgen("run " + graph + " --check --verify-spmd -o '" + work + "/run'");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(run.err.find("check passed") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(work + "/run/out0.npy"));
  CHECK(readFile(work + "/eval/out1.npy") == readFile(work + "/run/out1.npy"));
}

TEST_CASE("tokens: the tool's errors") {
  std::string work = makeTempDir();
  writeFile(work + "/g.mlir", kTokenLoop);
  writeNpy(work + "/x.npy", loopInput());
  ToolResult extra =
      runShardgen("eval '" + work + "/g.mlir' --inputs '" + work + "/x.npy' '" + work + "/x.npy'");
  CHECK(extra.exitCode != 0);
  CHECK(contains(extra.err, "--inputs needs one .npy file per graph input (a !stablehlo.token "
                            "input takes none): the graph has 1, got 2"));

  writeFile(work + "/io.mlir", R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.create_token : !stablehlo.token
  %1 = "stablehlo.outfeed"(%arg0, %0) {outfeed_config = ""} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %arg0 : tensor<4xf32>
})");
  ToolResult io = runShardgen("eval '" + work + "/io.mlir'");
  CHECK(io.exitCode == 1);
  CHECK(contains(io.err, "io.mlir:3:3: error: operation 'stablehlo.outfeed' is not supported: it "
                         "does I/O"));
}
