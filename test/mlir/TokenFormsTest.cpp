// Tokens in MLIR: `!stablehlo.token` arguments, results and carried values,
// after_all as StableHLO prints it (and create_token, its deprecated alias)
// and in the generic form, round trips, Shardy's sdy.data_flow_edge read as
// the value it wraps with its sharding on the op's result, and the errors
// (ops doing I/O, a tensor given to after_all, an edge of no data-flow op).
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

Graph importTokens(const std::string &text) {
  mlir::ImportedGraph imported = mlir::importMlir(text);
  verifyGraph(imported.graph);
  return std::move(imported.graph);
}

/// The place and message of the first error importing and verifying `text`.
std::pair<std::string, std::string> tokenErrorOf(const std::string &text) {
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

void checkTokenRoundTrips(const Graph &graph) {
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    std::string text = mlir::writeMlir(graph, form);
    INFO((form == MlirForm::Pretty ? "pretty" : "generic") << " form:\n" << text);
    Graph back = importTokens(text);
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
  Graph graph = importTokens(kTokens);
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
  checkTokenRoundTrips(graph);
}

TEST_CASE("tokens: the printed forms of after_all") {
  Graph graph = importTokens(kTokens);
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
  Graph graph = importTokens(R"(
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
    auto [place, message] = tokenErrorOf(R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.after_all : !stablehlo.token
  %1 = "stablehlo.send"(%a, %0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %a : tensor<4xf32>
})");
    CHECK(message.find("'stablehlo.send' is not supported: it does I/O") != std::string::npos);
    CHECK(place == "3:3");
  }
  SUBCASE("after_all given a tensor") {
    auto [place, message] = tokenErrorOf(R"(func.func @main(%a: tensor<4xf32>) -> !stablehlo.token {
  %0 = "stablehlo.after_all"(%a) : (tensor<4xf32>) -> !stablehlo.token
  return %0 : !stablehlo.token
})");
    CHECK(place == "2:30"); // the operand
    CHECK(message == "\"after_all\" joins tokens, but operand 0 is tensor<4xf32>");
  }
  SUBCASE("a token given to an op on tensors") {
    auto [place, message] =
        tokenErrorOf(R"(func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.add %t, %t : !stablehlo.token
  return %0 : !stablehlo.token
})");
    CHECK(place == "2:22");
    CHECK(message.starts_with("\"add\" takes tensors, but operand 0 is a !stablehlo.token"));
  }
  SUBCASE("another type of a dialect") {
    auto [place, message] = tokenErrorOf(R"(func.func @main(%t: !stablehlo.future) -> tensor<f32> {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
})");
    CHECK(message.find("type !stablehlo.future is not supported (only tensor types and "
                       "!stablehlo.token are)") != std::string::npos);
  }
  SUBCASE("a data-flow edge of an op without data-flow edges") {
    auto [place, message] = tokenErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<4xf32>
  return %1 : tensor<4xf32>
})");
    CHECK(message.find("'sdy.data_flow_edge' of %0, a result of add") != std::string::npos);
    CHECK(place == "4:3");
  }
}
