// while, case and if in MLIR: JAX's printed while (`stablehlo.while(%iterArg
// = %a) : t cond { } do { }`), the generic forms of all three (case and if
// have no other), regions reading the enclosing values, round trips in both
// forms and through JSON, and the verifier's errors at their line:col.
#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Sharding.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/verify/Verifier.h"
#include "test/frontend/GraphEquality.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;
using namespace shardgen::testing;
using mlir::MlirForm;

namespace {

Graph importControlFlow(const std::string &text) {
  mlir::ImportedGraph imported = mlir::importMlir(text);
  verifyGraph(imported.graph);
  return std::move(imported.graph);
}

/// The place and message of the first error importing and verifying `text`.
std::pair<std::string, std::string> controlFlowErrorOf(const std::string &text) {
  mlir::ImportedGraph imported;
  try {
    imported = mlir::importMlir(text);
    verifyGraph(imported.graph);
  } catch (const GraphError &error) {
    return {imported.places.place(error.pointer()), error.what()};
  }
  FAIL("no error");
  return {};
}

void checkRoundTrips(const Graph &graph) {
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    std::string text = mlir::writeMlir(graph, form);
    INFO((form == MlirForm::Pretty ? "pretty" : "generic") << " form:\n" << text);
    Graph back = importControlFlow(text);
    Graph expected = graph.clone();
    normalizeForMlir(expected);
    normalizeForMlir(back);
    checkSameGraph(back, expected);
    CHECK(mlir::writeMlir(back, form) == text);
  }
  Graph json = readGraph(writeGraph(graph));
  verifyGraph(json);
  checkSameGraph(json, graph);
}

// As jax.jit(f).lower(x).as_text() prints lax.fori_loop(0, 3, body, x) with
// a lax.cond per step (lowered to a case on a converted predicate).
const char *kJaxLoop =
    R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x4xf32>
     cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.compare  EQ, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
      %3 = "stablehlo.case"(%2) ({
        %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
        %6 = stablehlo.multiply %iterArg_0, %5 : tensor<8x4xf32>
        stablehlo.return %6 : tensor<8x4xf32>
      }, {
        %5 = stablehlo.negate %iterArg_0 : tensor<8x4xf32>
        stablehlo.return %5 : tensor<8x4xf32>
      }) : (tensor<i32>) -> tensor<8x4xf32>
      %4 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %4, %3 : tensor<i32>, tensor<8x4xf32>
    }
    return %0#1 : tensor<8x4xf32>
  }
}
)";

} // namespace

TEST_CASE("JAX's while with a case in its body: regions, captured values, names") {
  Graph graph = importControlFlow(kJaxLoop);
  const Op &loop = graph.main.ops.at(2);
  REQUIRE(loop.kind == OpKind::While);
  REQUIRE(loop.regions.size() == 2);
  CHECK(loop.regions[0].pointer == "/ops/2/cond");
  CHECK(loop.regions[1].pointer == "/ops/2/body");
  CHECK(loop.regions[0].args.size() == 2);
  CHECK(graph.value(loop.regions[0].args[0].value).name == "iterArg");
  // Names are new to the enclosing regions too (the JSON reader's rule).
  CHECK(graph.value(loop.regions[1].args[0].value).name == "iterArg");
  const Op &branch = loop.regions[1].ops.at(3);
  REQUIRE(branch.kind == OpKind::Case);
  CHECK(branch.regions.size() == 2);
  CHECK(branch.regions[1].pointer == "/ops/2/body/ops/3/branches/1");
  // The branch reads %cst of main and %iterArg_0 of the body.
  CHECK(branch.regions[0].ops[0].operands[0] == graph.main.ops[1].results[0]);
  CHECK(branch.regions[0].ops[1].operands[0] == loop.regions[1].args[1].value);
  CHECK(graph.type(loop.results[1]) == graph.type(graph.main.args[0].value));
  checkRoundTrips(graph);
}

TEST_CASE("case and if in the generic form; an if's branches") {
  Graph graph = importControlFlow(R"(
func.func @main(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.if"(%p) ({
    %1 = "stablehlo.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%1) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  %2:2 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%0, %x) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %2#0, %2#1 : tensor<4xf32>, tensor<4xf32>
})");
  CHECK(graph.main.ops.at(0).kind == OpKind::If);
  CHECK(graph.main.ops.at(1).kind == OpKind::Case);
  checkRoundTrips(graph);
}

TEST_CASE("the type rules of while, case and if, at their line:col") {
  const std::string head =
      "func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {\n";
  auto [place, message] =
      controlFlowErrorOf(head + R"(  %0 = stablehlo.while(%a = %x) : tensor<4xf32>
   cond {
    stablehlo.return %a : tensor<4xf32>
  } do {
    stablehlo.return %a : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
})");
  CHECK(place == "4:22");
  CHECK(message == "\"while\" cond returns tensor<4xf32> as value 0, expected tensor<i1> (a "
                   "scalar i1 condition)");

  std::tie(place, message) =
      controlFlowErrorOf(head + R"(  %0 = stablehlo.while(%a = %x) : tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %c = stablehlo.constant dense<1> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }
  func.return %0 : tensor<4xf32>
})");
  CHECK(place == "8:22");
  CHECK(message == "\"while\" body returns tensor<i32> as value 0, expected tensor<4xf32> (the "
                   "types of the operands)");

  std::tie(place, message) = controlFlowErrorOf(head + R"(  %0 = "stablehlo.case"(%x) ({
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
})");
  CHECK(place == "2:25");
  CHECK(message == "\"case\" index must be a tensor<i32> scalar, got tensor<4xf32>");

  std::tie(place, message) = controlFlowErrorOf(head + R"(  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %i : tensor<i32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
})");
  CHECK(place == "5:22");
  CHECK(message == "\"case\" branch 1 returns tensor<i32> as value 0, expected tensor<4xf32> "
                   "(what branch 0 returns)");

  std::tie(place, message) = controlFlowErrorOf(head + R"(  %0 = "stablehlo.if"(%i) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
})");
  CHECK(message == "\"if\" pred must be a tensor<i1> scalar, got tensor<i32>");

  // A region's own values are not seen after the op.
  std::tie(place, message) = controlFlowErrorOf(head + R"(  %0 = "stablehlo.case"(%i) ({
    %y = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %y : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
})");
  CHECK(place == "6:15");
  CHECK(message == "use of undefined value %y");
}

TEST_CASE("a loop with collectives in a manual computation must take one path on every device") {
  // Its bound depends on axis_index: the devices would iterate differently
  // and wait in the all_reduce for each other forever.
  auto [place, message] = controlFlowErrorOf(
      R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x4xf32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %a) : tensor<i32>, tensor<4x4xf32>
       cond {
        %c_1 = stablehlo.constant dense<2> : tensor<i32>
        %ax = "shardgen.axis_index"() <{axis = "x"}> : () -> tensor<i32>
        %c_2 = stablehlo.add %c_1, %ax : tensor<i32>
        %2 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
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
)");
  CHECK(place == "6:7");
  CHECK(message == "\"while\" inside a manual computation runs collectives, but its condition "
                   "may differ between the devices (it depends on a device's own data or "
                   "position): every device must take the same path");
}

TEST_CASE("sdy.named_computation is inlined, its values named after it (both forms), its in/out "
          "shardings constraints") {
  Graph graph = importControlFlow(R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x2xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] (%arg1: tensor<8x2xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x2xf32>
    sdy.return %1 : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %2 = "sdy.named_computation"(%0) <{name = "bar"}> ({
  ^bb0(%arg1: tensor<8x2xf32>):
    %3 = stablehlo.add %arg1, %arg1 : tensor<8x2xf32>
    sdy.return %3 : tensor<8x2xf32>
  }) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %2 : tensor<8x2xf32>
}
)");
  // "foo"'s in/out shardings are sharding_constraints around its body.
  REQUIRE(graph.main.ops.size() == 4);
  CHECK(graph.main.ops[0].kind == OpKind::ShardingConstraint);
  CHECK(graph.value(graph.main.ops[0].results[0]).name == "foo.arg1");
  CHECK(graph.main.ops[1].kind == OpKind::Negate);
  CHECK(graph.value(graph.main.ops[1].results[0]).name == "foo.1");
  CHECK(graph.main.ops[1].operands[0] == graph.main.ops[0].results[0]);
  CHECK(graph.main.ops[2].kind == OpKind::ShardingConstraint);
  CHECK(graph.value(graph.main.ops[2].results[0]).name == "0");
  CHECK(graph.main.ops[3].operands[0] == graph.main.ops[2].results[0]);
  CHECK(graph.value(graph.main.ops[3].results[0]).name == "bar.3");
  CHECK(graph.main.results[0].value == graph.main.ops[3].results[0]);
}

// Tokens: `!stablehlo.token` arguments, results and carried values, after_all
// (create_token, its deprecated alias) in both forms, Shardy's
// sdy.data_flow_edge read as the value it wraps, and the errors.

namespace {

// stablehlo/tests/interpret/after_all.mlir's ops, a token argument and
// result, and a while carrying a token beside a counter.
const char *kTokens = R"(module @jit_f {
  func.func public @main(%arg0: !stablehlo.token, %arg1: tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>) {
    %input0 = stablehlo.after_all : !stablehlo.token
    %input1 = stablehlo.create_token : !stablehlo.token
    %result = stablehlo.after_all %input0, %input1, %arg0 : !stablehlo.token
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %result, %iterArg_0 = %c, %iterArg_1 = %arg1) : !stablehlo.token, tensor<i32>, tensor<4xf32>
     cond {
      %c_2 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg_0, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_0, %c_2 : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %iterArg_1 : tensor<4xf32>
      %3 = stablehlo.after_all %iterArg : !stablehlo.token
      stablehlo.return %3, %1, %2 : !stablehlo.token, tensor<i32>, tensor<4xf32>
    }
    return %0#0, %0#2 : !stablehlo.token, tensor<4xf32>
  }
}
)";

} // namespace

TEST_CASE("tokens: after_all and create_token as StableHLO prints them, a carried token") {
  Graph graph = importControlFlow(kTokens);
  CHECK(graph.type(graph.main.args[0].value) == tokenType());
  CHECK(printType(graph.type(graph.main.args[0].value)) == "!stablehlo.token");
  const Op &fresh = graph.main.ops.at(0), &alias = graph.main.ops.at(1),
           &joined = graph.main.ops.at(2);
  CHECK(fresh.kind == OpKind::AfterAll);
  CHECK(fresh.operands.empty());
  CHECK(alias.kind == OpKind::AfterAll); // create_token is an after_all of nothing
  CHECK(alias.operands.empty());
  REQUIRE(joined.operands.size() == 3);
  CHECK(joined.operands[2] == graph.main.args[0].value);
  const Op &loop = graph.main.ops.at(4);
  REQUIRE(loop.kind == OpKind::While);
  CHECK(graph.type(loop.results[0]).isToken());
  CHECK(graph.type(loop.regions[1].args[0].value).isToken());
  CHECK(graph.type(graph.main.results[0].value).isToken());
  checkRoundTrips(graph);
}

TEST_CASE("tokens: the printed forms of after_all") {
  Graph graph = importControlFlow(kTokens);
  const std::string pretty = mlir::writeMlir(graph, MlirForm::Pretty);
  CHECK(pretty.find("func.func public @main(%arg0: !stablehlo.token, %arg1: tensor<4xf32>) -> "
                    "(!stablehlo.token, tensor<4xf32>)") != std::string::npos);
  CHECK(pretty.find("%input0 = stablehlo.after_all : !stablehlo.token\n") != std::string::npos);
  CHECK(pretty.find("%result = stablehlo.after_all %input0, %input1, %arg0 : !stablehlo.token\n") !=
        std::string::npos);
  const std::string generic = mlir::writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("%input0 = \"stablehlo.after_all\"() : () -> !stablehlo.token") !=
        std::string::npos);
  CHECK(generic.find("%result = \"stablehlo.after_all\"(%input0, %input1, %arg0) : "
                     "(!stablehlo.token, !stablehlo.token, !stablehlo.token) -> "
                     "!stablehlo.token") != std::string::npos);
}

TEST_CASE("sdy.data_flow_edge: the value it wraps, its sharding on the op's result") {
  Graph graph = importControlFlow(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<i32>, %arg1: !stablehlo.token, %arg2: tensor<4xi64>) -> (!stablehlo.token, tensor<4xi64>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg2 : !stablehlo.token, tensor<4xi64>
  }, {
    stablehlo.return %arg1, %arg2 : !stablehlo.token, tensor<4xi64>
  }) : (tensor<i32>) -> (!stablehlo.token, tensor<4xi64>)
  %1 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"a", ?}]> : tensor<4xi64>
  %2 = sdy.data_flow_edge %0#0 : !stablehlo.token
  return %2, %1 : !stablehlo.token, tensor<4xi64>
})");
  REQUIRE(graph.main.ops.size() == 1); // the edges are no ops
  const Op &branches = graph.main.ops[0];
  CHECK(graph.main.results[0].value == branches.results[0]);
  CHECK(graph.main.results[1].value == branches.results[1]);
  REQUIRE(branches.shardings[1]);
  CHECK(printSharding(*branches.shardings[1]) == "<@mesh, [{\"a\", ?}]>");
  CHECK(!branches.shardings[0]);
}

TEST_CASE("tokens: errors at their line:col") {
  SUBCASE("an op doing I/O") {
    auto [place, message] =
        controlFlowErrorOf(R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.after_all : !stablehlo.token
  %1 = "stablehlo.send"(%a, %0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %a : tensor<4xf32>
})");
    CHECK(message.find("'stablehlo.send' is not supported: it does I/O") != std::string::npos);
    CHECK(place == "3:3");
  }
  SUBCASE("after_all given a tensor") {
    auto [place, message] =
        controlFlowErrorOf(R"(func.func @main(%a: tensor<4xf32>) -> !stablehlo.token {
  %0 = "stablehlo.after_all"(%a) : (tensor<4xf32>) -> !stablehlo.token
  return %0 : !stablehlo.token
})");
    CHECK(place == "2:30"); // the operand
    CHECK(message == "\"after_all\" joins tokens, but operand 0 is tensor<4xf32>");
  }
  SUBCASE("a token given to an op on tensors") {
    auto [place, message] =
        controlFlowErrorOf(R"(func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.add %t, %t : !stablehlo.token
  return %0 : !stablehlo.token
})");
    CHECK(place == "2:22");
    CHECK(message.starts_with("\"add\" takes tensors, but operand 0 is a !stablehlo.token"));
  }
  SUBCASE("another type of a dialect") {
    auto [place, message] =
        controlFlowErrorOf(R"(func.func @main(%t: !stablehlo.future) -> tensor<f32> {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
})");
    CHECK(message.find("type !stablehlo.future is not supported (only tensor types and "
                       "!stablehlo.token are)") != std::string::npos);
  }
  SUBCASE("a data-flow edge of an op without data-flow edges") {
    auto [place, message] = controlFlowErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<4xf32>
  return %1 : tensor<4xf32>
})");
    CHECK(message.find("'sdy.data_flow_edge' of %0, a result of add") != std::string::npos);
    CHECK(place == "4:3");
  }
  SUBCASE("a data-flow edge of a manual computation's body argument") {
    auto [place, message] = controlFlowErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%b: tensor<2xf32>) {
    %1 = sdy.data_flow_edge %b sharding=<@mesh, [{?}]> : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
    CHECK(place == "4:5");
    CHECK(message.find("'sdy.data_flow_edge' of %b, which is no op's result") != std::string::npos);
  }
}
