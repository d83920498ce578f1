// while, case and if compiled for a 2x2 mesh and run on the threads
// runtime equal the interpreter: per-device loops and branches (not
// unrolled), carried values in one sharding across iterations, the
// condition and index whole on every device, a collective inside a loop.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "compiler/frontend/GraphWriter.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/verify/Verifier.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

Graph importVerified(const std::string &text) {
  mlir::ImportedGraph imported = mlir::importMlir(text);
  verifyGraph(imported.graph);
  return std::move(imported.graph);
}

const std::string kModule =
    R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
)";

// lax.fori_loop(0, 3, lambda i, x: x * 1.5 + x, x) on x sharded [{x}, {y}].
const std::string kScaleLoop =
    kModule +
    R"(  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x4xf32>
     cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
      %3 = stablehlo.multiply %iterArg_0, %2 : tensor<8x4xf32>
      %4 = stablehlo.add %3, %iterArg_0 : tensor<8x4xf32>
      stablehlo.return %1, %4 : tensor<i32>, tensor<8x4xf32>
    }
    return %0#1 : tensor<8x4xf32>
  }
}
)";

// lax.switch(i, [2x, x*x, -x]) on x sharded [{x}, {}]; the index an input
// (pseudo-random: mostly out of range, the last branch) and constants.
std::string switchProgram(const std::string &index) {
  return kModule +
         R"(  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32>, tensor<i32>) {
    %k = )" +
         index +
         R"(
    %0:2 = "stablehlo.case"(%k) ({
      %1 = stablehlo.add %arg1, %arg1 : tensor<8x4xf32>
      stablehlo.return %1, %arg0 : tensor<8x4xf32>, tensor<i32>
    }, {
      %1 = stablehlo.multiply %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x4xf32>
      %c = stablehlo.constant dense<7> : tensor<i32>
      stablehlo.return %1, %c : tensor<8x4xf32>, tensor<i32>
    }, {
      %1 = stablehlo.negate %arg1 : tensor<8x4xf32>
      stablehlo.return %1, %arg0 : tensor<8x4xf32>, tensor<i32>
    }) : (tensor<i32>) -> (tensor<8x4xf32>, tensor<i32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<i32>
  }
}
)";
}

// Two steps of x = (x @ w) / 8 with x [{x}, {y}] and w [{y}, {}]: the
// contraction over y ends in a collective inside the loop.
const std::string kDotLoop =
    kModule +
    R"(  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>
     cond {
      %c_2 = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      %2 = stablehlo.dot_general %iterArg_0, %iterArg_1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      %cst = stablehlo.constant dense<1.250000e-01> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %4 = stablehlo.multiply %2, %3 : tensor<8x8xf32>
      stablehlo.return %1, %4, %iterArg_1 : tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>
    }
    return %0#1 : tensor<8x8xf32>
  }
}
)";

// shard_map inside scan: a manual computation (an all_reduce over x) in a
// loop's body.
const std::string kManualInLoop =
    R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x4xf32>
     cond {
      %c_1 = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %2 = sdy.manual_computation(%iterArg_0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x4xf32>) {
        %3 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %4 = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %4 : tensor<f32>
        }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
        sdy.return %3 : tensor<4x4xf32>
      } : (tensor<8x4xf32>) -> tensor<8x4xf32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<8x4xf32>
    }
    return %0#1 : tensor<8x4xf32>
  }
}
)";

// scan inside shard_map: a loop (an all_reduce per iteration) in a manual
// computation's body; its counter is the same on every device.
const std::string kLoopInManual =
    R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x4xf32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %a) : tensor<i32>, tensor<4x4xf32>
       cond {
        %c_1 = stablehlo.constant dense<2> : tensor<i32>
        %2 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %2 : tensor<i1>
      } do {
        %c_1 = stablehlo.constant dense<1> : tensor<i32>
        %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
        %3 = "stablehlo.all_reduce"(%iterArg_0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %4 = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %4 : tensor<f32>
        }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
        stablehlo.return %2, %3 : tensor<i32>, tensor<4x4xf32>
      }
      sdy.return %1#1 : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)";

} // namespace

TEST_CASE("a while loop scaling a sharded tensor: a per-device loop, equal to the interpreter") {
  Graph graph = importVerified(kScaleLoop);
  std::string source = generatedSource(writeGraph(graph));
  CHECK(source.find("for (;;)") != std::string::npos); // a loop, not unrolled
  Graph again = importVerified(kScaleLoop);
  CHECK(checkCompiledEqualsInterpreter(again, 1) == "");
}

TEST_CASE("case choosing between three branches: in range, out of range, an input index") {
  for (const char *index :
       {"stablehlo.constant dense<0> : tensor<i32>", "stablehlo.constant dense<1> : tensor<i32>",
        "stablehlo.constant dense<-4> : tensor<i32>", "stablehlo.add %arg0, %arg0 : tensor<i32>"}) {
    CAPTURE(index);
    Graph graph = importVerified(switchProgram(index));
    CHECK(checkCompiledEqualsInterpreter(graph, 3) == "");
  }
  Graph graph = importVerified(switchProgram("stablehlo.constant dense<1> : tensor<i32>"));
  CHECK(generatedSource(writeGraph(graph)).find("switch (") != std::string::npos);
}

TEST_CASE("a while whose body contracts sharded operands: a collective per iteration") {
  Graph graph = importVerified(kDotLoop);
  SpmdProgram program = partitionVerified(graph); // coherent: every device runs it alike
  REQUIRE(program.steps.size() == 2);
  const SpmdStep &loop = program.steps[1];
  REQUIRE(loop.kind == StepKind::Loop);
  bool collectiveInBody = false;
  for (const SpmdStep &step : loop.blocks[1].steps)
    collectiveInBody |= step.kind == StepKind::ReduceScatter || step.kind == StepKind::AllReduce;
  CHECK(collectiveInBody);
  // Carried values keep the operands' shardings: nothing is resharded
  // before the loop.
  CHECK(loop.inputs[1] == program.inputs[0]);
  CHECK(loop.inputs[2] == program.inputs[1]);
  Graph again = importVerified(kDotLoop);
  CHECK(checkCompiledEqualsInterpreter(again, 5) == "");
}

TEST_CASE("shard_map inside scan and scan inside shard_map") {
  for (const std::string *text : {&kManualInLoop, &kLoopInManual}) {
    Graph graph = importVerified(*text);
    CHECK(checkCompiledEqualsInterpreter(graph, 2) == "");
  }
}

TEST_CASE("the control-flow samples: scanned MLP, lax.cond per step, greedy decode, remat") {
  for (const char *name : {"scan_mlp", "cond_loop", "greedy_decode", "remat_block"}) {
    CAPTURE(name);
    std::ifstream file(std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlir/" + name + ".mlir");
    std::stringstream text;
    text << file.rdbuf();
    Graph graph = importVerified(text.str());
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE(
    "the dropout_rbg sample: rng_bit_generator's mask drawn piecewise equals the interpreter") {
  std::ifstream file(std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlir/dropout_rbg.mlir");
  std::stringstream text;
  text << file.rdbuf();
  Graph graph = importVerified(text.str());
  CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
}

TEST_CASE("a loop-invariant reshard runs once, before the loop") {
  // The body adds %arg1 ([{}, {y}]) to the carried [{x}, {}] value: %arg1
  // is resharded before the loop, the body moves nothing.
  const std::string text =
      R"(module @jit_h attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x4xf32>
     cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %2 = stablehlo.add %iterArg_0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<8x4xf32>
    }
    return %0#1 : tensor<8x4xf32>
  }
}
)";
  Graph graph = importVerified(text);
  SpmdProgram program = partitionVerified(graph);
  REQUIRE(program.steps.size() == 4);
  CHECK(program.steps[1].kind == StepKind::AllSlice);
  CHECK(program.steps[2].kind == StepKind::AllGather);
  const SpmdStep &loop = program.steps[3];
  REQUIRE(loop.kind == StepKind::Loop);
  for (const SpmdBlock &block : loop.blocks)
    for (const SpmdStep &step : block.steps)
      CHECK(step.kind == StepKind::Compute);
  // The hoisted value is read by the loop (it lives while the loop runs).
  CHECK(std::find(loop.inputs.begin(), loop.inputs.end(), program.steps[2].outputs[0]) !=
        loop.inputs.end());
  Graph again = importVerified(text);
  CHECK(checkCompiledEqualsInterpreter(again, 4) == "");
}

TEST_CASE("two dots read by one elementwise chain: one dot per epilogue") {
  // (1 - a @ b) * (a @ b) with the product computed twice (as remat
  // writes it): the second dot's product was read from a buffer nothing
  // wrote when both dots joined one epilogue.
  const std::string text =
      R"(func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>) -> (tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %6 = stablehlo.subtract %5, %2 : tensor<8x16xf32>
  %7 = stablehlo.multiply %6, %0 : tensor<8x16xf32>
  return %7 : tensor<8x16xf32>
}
)";
  Graph graph = importVerified(text);
  CHECK(checkCompiledEqualsInterpreter(graph, 6) == "");
}

TEST_CASE("a loop result annotated unreduced: the carried value is held complete") {
  // The loop runs no iteration; its carried buffers held the operand whole
  // but were laid out as partial over y, and the output summed them (2x).
  const std::string text = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x4xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>}
   cond {
    %c = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<8x4xf32>
    stablehlo.return %1 : tensor<8x4xf32>
  }
  func.return %0 : tensor<8x4xf32>
}
)";
  Graph graph = importVerified(text);
  CHECK(checkCompiledEqualsInterpreter(graph, 8) == "");
}

TEST_CASE("nested loops: carried values swapped, a reshard hoisted out of both loops") {
  // The outer body returns its carried %b as %a's next value (copied apart:
  // carried values are written one after another); the inner body reads %w
  // of main (resharded once, before the outer loop) and the outer %b.
  const std::string text = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %w: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%i = %c, %a = %arg0, %b = %arg1) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%j = %z, %v = %a) : tensor<i32>, tensor<8x4xf32>
     cond {
      %m = stablehlo.constant dense<2> : tensor<i32>
      %q = stablehlo.compare LT, %j, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %one2 = stablehlo.constant dense<1> : tensor<i32>
      %j2 = stablehlo.add %j, %one2 : tensor<i32>
      %v2 = stablehlo.add %v, %w : tensor<8x4xf32>
      %v3 = stablehlo.add %v2, %b : tensor<8x4xf32>
      stablehlo.return %j2, %v3 : tensor<i32>, tensor<8x4xf32>
    }
    stablehlo.return %i2, %b, %1#1 : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
  func.return %0#1, %0#2 : tensor<8x4xf32>, tensor<8x4xf32>
}
)";
  Graph graph = importVerified(text);
  SpmdProgram program = partitionVerified(graph);
  REQUIRE(program.steps.back().kind == StepKind::Loop);
  const SpmdStep &inner = program.steps.back().blocks[1].steps.at(3);
  REQUIRE(inner.kind == StepKind::Loop);
  for (const SpmdStep &step : inner.blocks[1].steps)
    CHECK(step.kind == StepKind::Compute);
  Graph again = importVerified(text);
  CHECK(checkCompiledEqualsInterpreter(again, 12) == "");
}

TEST_CASE("if on a predicate of the data: its blocks in the order false, true") {
  // The sum's sign decides (either branch over the seeds); a sum near 0 may
  // flip between the orders of the sharded and unsharded sums: then any
  // result is accepted (the interpreter's bounds).
  const std::string text = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%arg0 init: %c0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.compare GT, %s, %c0 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %0 = "stablehlo.if"(%p) ({
    %1 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32>
    stablehlo.return %1 : tensor<8x4xf32>
  }, {
    %1 = stablehlo.negate %arg0 : tensor<8x4xf32>
    stablehlo.return %1 : tensor<8x4xf32>
  }) : (tensor<i1>) -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}
)";
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    CAPTURE(seed);
    Graph graph = importVerified(text);
    CHECK(checkCompiledEqualsInterpreter(graph, seed) == "");
  }
}

TEST_CASE("jax.random.split as JAX prints it gives JAX's keys, interpreted and compiled") {
  std::ifstream file(std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlir/random_split.mlir");
  std::stringstream text;
  text << file.rdbuf();
  Graph graph = importVerified(text.str());
  std::string error;
  Literal key(*parseType("tensor<2xui32>", &error));
  key.setInt(0, 0);
  key.setInt(1, 0);
  // jax.random.split(jax.random.PRNGKey(0)), as JAX computes it.
  const std::vector<int64_t> expected = {4146024105, 967050713, 2718843009, 1272950319};
  const std::vector<Literal> interpreted = evaluate(graph, {key});
  REQUIRE(interpreted.size() == 1);
  for (int64_t i = 0; i < 4; ++i)
    CHECK(interpreted[0].getInt(i) == expected[static_cast<size_t>(i)]);
  SpmdProgram program = pipeline::propagateAndPartition(graph);
  CompiledProgram compiled(program, generateProgram(program));
  const std::vector<Literal> run = compiled.run({key});
  REQUIRE(run.size() == 1);
  for (int64_t i = 0; i < 4; ++i)
    CHECK(run[0].getInt(i) == expected[static_cast<size_t>(i)]);
}

TEST_CASE("tokens: carried by a loop and a case, joined by after_all; no copy, no byte") {
  const std::string text =
      kModule +
      R"(  func.func public @main(%arg0: !stablehlo.token, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg2: tensor<i32>) -> (!stablehlo.token, tensor<8x4xf32>, !stablehlo.token) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c, %iterArg_1 = %arg1) : !stablehlo.token, tensor<i32>, tensor<8x4xf32>
     cond {
      %c_1 = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg_0, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_0, %c_1 : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %iterArg_1 : tensor<8x4xf32>
      %3 = stablehlo.after_all %iterArg : !stablehlo.token
      stablehlo.return %3, %1, %2 : !stablehlo.token, tensor<i32>, tensor<8x4xf32>
    }
    %4:2 = "stablehlo.case"(%arg2) ({
      stablehlo.return %0#0, %0#2 : !stablehlo.token, tensor<8x4xf32>
    }, {
      %5 = stablehlo.negate %0#2 : tensor<8x4xf32>
      %6 = stablehlo.create_token : !stablehlo.token
      stablehlo.return %6, %5 : !stablehlo.token, tensor<8x4xf32>
    }) : (tensor<i32>) -> (!stablehlo.token, tensor<8x4xf32>)
    %7 = stablehlo.after_all %4#0, %arg0 : !stablehlo.token
    return %7, %4#1, %0#0 : !stablehlo.token, tensor<8x4xf32>, !stablehlo.token
  }
}
)";
  for (uint64_t seed : {1, 2}) {
    CAPTURE(seed);
    Graph graph = importVerified(text);
    CHECK(checkCompiledEqualsInterpreter(graph, seed) == "");
  }
}

TEST_CASE("tokens: a manual computation's token operand and result, in_sharding <@mesh, []>") {
  const std::string text =
      kModule +
      R"(  func.func public @main(%arg0: !stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg1: tensor<4x4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> (!stablehlo.token, tensor<4x4xi64>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, []>, <@mesh, [{?}, {"y"}]>] out_shardings=[<@mesh, []>, <@mesh, [{?}, {"y"}]>] manual_axes={"y"} (%arg2: !stablehlo.token, %arg3: tensor<4x2xi64>) {
      %1 = stablehlo.after_all %arg2 : !stablehlo.token
      %2 = stablehlo.add %arg3, %arg3 : tensor<4x2xi64>
      sdy.return %1, %2 : !stablehlo.token, tensor<4x2xi64>
    } : (!stablehlo.token, tensor<4x4xi64>) -> (!stablehlo.token, tensor<4x4xi64>)
    return %0#0, %0#1 : !stablehlo.token, tensor<4x4xi64>
  }
}
)";
  Graph graph = importVerified(text);
  CHECK(checkCompiledEqualsInterpreter(graph, 4) == "");
}

TEST_CASE("a scan moves no carried bytes per iteration: results trade buffers, weights are views") {
  std::ifstream file(std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlir/scan_mlp.mlir");
  std::stringstream text;
  text << file.rdbuf();
  const std::string source = generatedSource(writeGraph(importVerified(text.str())));
  // The step and the activations trade buffers with the body's results...
  CHECK(source.find("unsigned char *const traded") != std::string::npos);
  // ...the stacked weights (3x16x8 f32 per device, returned unchanged) are
  // the loop's input itself, never copied in or out, and a layer's weights
  // point into them at the clamped step.
  CHECK(source.find("copy<uint8_t, 1536>") == std::string::npos);
  CHECK(source.find(" + (clampedStart<int32_t, 2>(") != std::string::npos);
  Graph graph = importVerified(text.str());
  CHECK(checkCompiledEqualsInterpreter(graph, 13) == "");
}

TEST_CASE("loop results that are views: of each other's carried values, an inner loop's, twice") {
  // The body returns each carried value reshaped into the other's place (a
  // view: both copies read a buffer the other writes, so through scratch
  // copies), the same computed value twice (one trades buffers, one is
  // copied), an inner loop's invariant value and a row of it (views of the
  // outer carried weights, which then stay unchanged).
  auto twoCarried = [](const std::string &body) {
    return R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%i = %c, %a = %arg0, %b = %arg1) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.add %a, %b : tensor<8x4xf32>
    %t = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<8x4xf32>
)" + body + R"(  }
  return %0#1, %0#2 : tensor<8x4xf32>, tensor<8x4xf32>
}
)";
  };
  const std::string crossed =
      twoCarried(R"(    %u = stablehlo.reshape %s : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %v = stablehlo.reshape %b : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %w = stablehlo.add %u, %v : tensor<8x4xf32>
    stablehlo.return %j, %w, %t : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
)");
  const std::string swapped =
      twoCarried(R"(    %u = stablehlo.reshape %b : (tensor<8x4xf32>) -> tensor<8x4xf32>
    stablehlo.return %j, %u, %t : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
)");
  const std::string nested = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:5 = stablehlo.while(%i = %c, %a = %arg0, %b = %arg0, %w = %arg1, %r = %arg0) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<3x8x4xf32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.multiply %a, %b : tensor<8x4xf32>
    %d = stablehlo.dynamic_slice %w, %i, %z, %z, sizes = [1, 8, 4] : (tensor<3x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x4xf32>
    %e = stablehlo.reshape %d : (tensor<1x8x4xf32>) -> tensor<8x4xf32>
    %f = stablehlo.add %s, %e : tensor<8x4xf32>
    %k:3 = stablehlo.while(%q = %z, %v = %f, %ww = %w) : tensor<i32>, tensor<8x4xf32>, tensor<3x8x4xf32>
     cond {
      %p2 = stablehlo.compare  LT, %q, %one,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p2 : tensor<i1>
    } do {
      %q1 = stablehlo.add %q, %one : tensor<i32>
      %v1 = stablehlo.negate %v : tensor<8x4xf32>
      stablehlo.return %q1, %v1, %ww : tensor<i32>, tensor<8x4xf32>, tensor<3x8x4xf32>
    }
    %back = stablehlo.slice %k#2 [2:3, 0:8, 0:4] : (tensor<3x8x4xf32>) -> tensor<1x8x4xf32>
    %bb = stablehlo.reshape %back : (tensor<1x8x4xf32>) -> tensor<8x4xf32>
    stablehlo.return %j, %f, %f, %k#2, %bb : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<3x8x4xf32>, tensor<8x4xf32>
  }
  return %0#1, %0#2, %0#4 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
)";
  CHECK(generatedSource(writeGraph(importVerified(swapped))).find("Scratch staged") !=
        std::string::npos);
  int seed = 20;
  for (const std::string *text : {&crossed, &swapped, &nested}) {
    Graph graph = importVerified(*text);
    CHECK(checkCompiledEqualsInterpreter(graph, ++seed) == "");
  }
}
