// What survives of a call when the importer inlines it: Shardy's
// sdy.func_data_flow_edge (an identity whose sharding is its value's), a
// callee's argument and result shardings (sharding_constraints at the call,
// as Shardy's named_computation in/out shardings), and the scope each
// inlined op came from (`_inlined_from`, which explain names).
#include <doctest/doctest.h>

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;
using namespace shardgen::mlir;

namespace {

using testing::importVerified;
auto &callErrorOf = testing::importErrorOf;

std::string shardingText(const UniquedOptional<TensorSharding> &sharding) {
  return sharding ? printSharding(*sharding) : "none";
}

} // namespace

TEST_CASE("sdy.func_data_flow_edge is an identity whose sharding is its value's") {
  // Shardy's basic_propagation_data_flow_edges.mlir writes them on a callee's
  // argument and on a call's result.
  Graph graph = importVerified(R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func private @callee(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x2xi32>
  %1 = stablehlo.subtract %0, %0 : tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}
func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x2xi32>
  %1 = call @callee(%0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %2 = sdy.func_data_flow_edge %1 : tensor<8x2xi32>
  %3 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x2xi32>
  %4 = stablehlo.add %2, %3 : tensor<8x2xi32>
  return %4 : tensor<8x2xi32>
}
)");
  REQUIRE(graph.main.ops.size() == 3);
  // The callee's edge carries the add; the caller's the subtract.
  CHECK(shardingText(graph.main.ops[0].shardings[0]) == "<@mesh, [{\"a\", ?}, {?}]>");
  CHECK(graph.main.ops[1].operands[0] == graph.main.ops[0].results[0]);
  CHECK(!graph.main.ops[1].shardings[0]);
  CHECK(graph.main.ops[2].operands[0] == graph.main.ops[1].results[0]);
  // An edge on an argument shards the argument.
  CHECK(shardingText(graph.main.args[0].sharding) == "<@mesh, [{\"b\"}, {}]>");
  CHECK(graph.main.ops[2].operands[1] == graph.main.args[0].value);

  // The value's own sharding and the edge's must agree.
  auto [place, message] = callErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xi32> {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xi32>
  return %0 : tensor<8xi32>
}
)");
  CHECK(place == "3:54");
  CHECK(message == "the sdy.func_data_flow_edge's sharding differs from the one %arg0 has");
  std::tie(place, message) = callErrorOf(R"(func.func @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<4xi32>
  return %0 : tensor<8xi32>
}
)");
  CHECK(place == "2:40");
  CHECK(message == "%arg0 has type tensor<8xi32>, but is used as tensor<4xi32>");

  // The verifier's errors about the sharding point at the edge.
  std::tie(place, message) = callErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = stablehlo.abs %arg0 : tensor<8xi32>
  %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xi32>
  return %1 : tensor<8xi32>
}
)");
  CHECK(place == "4:51"); // the sharding
  CHECK(message.find("unknown axis name: \"b\"") == 0);
}

TEST_CASE("a callee's argument and result shardings are sharding_constraints at each call") {
  // Shardy keeps them as the named computation's in/out shardings: the value
  // inside the call may be sharded otherwise than the caller's.
  Graph graph = importVerified(R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = call @foo(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
func.func private @foo(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a"}]>}) {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  REQUIRE(graph.main.ops.size() == 6);
  auto constraint = [&](size_t k, const std::string &name, const std::string &sharding) {
    const Op &op = graph.main.ops[k];
    CHECK(op.kind == OpKind::ShardingConstraint);
    CHECK(graph.value(op.results[0]).name == name);
    CHECK(shardingText(op.shardings[0]) == sharding);
  };
  constraint(0, "foo.arg0", "<@mesh, [{\"b\"}, {}]>");
  CHECK(graph.main.ops[0].operands[0] == graph.main.args[0].value);
  CHECK(graph.main.ops[1].kind == OpKind::Abs);
  CHECK(graph.main.ops[1].operands[0] == graph.main.ops[0].results[0]);
  constraint(2, "0", "<@mesh, [{?}, {\"a\"}]>"); // the callee's result sharding
  constraint(3, "foo.arg0_1", "<@mesh, [{\"b\"}, {}]>");
  constraint(5, "1", "<@mesh, [{}, {\"b\"}]>"); // the call's own, in its place
  CHECK(graph.main.results[0].value == graph.main.ops[2].results[0]);
  CHECK(graph.main.results[1].value == graph.main.ops[5].results[0]);

  // Propagation sees the boundaries: the caller's argument keeps {"a"} on
  // dim 0, the callee's abs gets its argument's {"b"} there and its result's
  // {"a"} on dim 1.
  PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
  applyPropagation(graph, result);
  CHECK(shardingText(graph.main.args[0].sharding) == "<@mesh, [{\"a\"}, {}]>");
  CHECK(shardingText(graph.main.ops[1].shardings[0]) == "<@mesh, [{\"b\"}, {\"a\"}]>");

  auto [place, message] = callErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)");
  CHECK(place == "3:41");
  CHECK(message == "expected 1 shardings (one per result), got 2");

  // A named computation's in/out shardings are its body's, one per value.
  std::tie(place, message) = callErrorOf(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"f">(%arg0) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  CHECK(message == "expected 1 in_shardings, got 2");
}

TEST_CASE("inlined ops say which call or named computation they came from") {
  Graph graph = importVerified(R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  %0 = call @outer(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = sdy.named_computation<"scale">(%0) (%arg1: tensor<4xf32>) {
    %2 = stablehlo.multiply %arg1, %arg1 : tensor<4xf32>
    sdy.return %2 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.negate %1 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
func.func private @outer(%b: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @inner(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @inner(%c: tensor<4xf32>) -> tensor<4xf32> {
  %s = stablehlo.abs %c : tensor<4xf32>
  return %s : tensor<4xf32>
}
)");
  REQUIRE(graph.main.ops.size() == 3);
  CHECK(metadataString(graph.main.ops[0].metadata, kInlinedFromKey) == "@outer > @inner");
  CHECK(metadataString(graph.main.ops[1].metadata, kInlinedFromKey) ==
        "sdy.named_computation<\"scale\">");
  CHECK(!metadataString(graph.main.ops[2].metadata, kInlinedFromKey)); // main's own

  PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
  std::string text = explainValue(graph, result, "scale.2");
  CHECK(text.find("defined in sdy.named_computation<\"scale\"> (inlined), by multiply /ops/1\n") !=
        std::string::npos);
  CHECK(text.find("propagated through multiply /ops/1 (in sdy.named_computation<\"scale\">) "
                  "from \"outer.inner.s\"") != std::string::npos);
}

TEST_CASE("stablehlo.composite is its decomposition, called (pretty and generic forms)") {
  // As JAX prints a composite (jax.lax.composite): the name and attributes
  // describe the op, the decomposition function computes it.
  const std::string text = R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.composite "my.softplus" %x {composite_attributes = {beta = 1.000000e+00 : f32}, decomposition = @my.softplus} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.composite"(%0) <{composite_attributes = {}, decomposition = @my.softplus, name = "my.softplus", version = 2 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @my.softplus(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = stablehlo.exponential %a : tensor<4xf32>
  %l = stablehlo.log_plus_one %e : tensor<4xf32>
  return %l : tensor<4xf32>
}
)";
  Graph graph = importVerified(text);
  REQUIRE(graph.main.ops.size() == 4);
  CHECK(graph.main.ops[0].kind == OpKind::Exponential);
  CHECK(graph.main.ops[3].kind == OpKind::LogPlusOne);
  CHECK(graph.main.ops[2].operands[0] == graph.main.ops[1].results[0]); // the second's input
  CHECK(metadataString(graph.main.ops[2].metadata, kInlinedFromKey) == "@my.softplus");

  // The stablehlo interpreter test's composite (composite.mlir): 1 + 2.
  Graph addN = importVerified(R"(func.func @add_n.impl(%arg0: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.constant dense<2> : tensor<i64>
  %1 = stablehlo.add %arg0, %0 : tensor<i64>
  func.return %1 : tensor<i64>
}
func.func @main() -> tensor<i64> {
  %0 = stablehlo.constant dense<1> : tensor<i64>
  %1 = stablehlo.composite "stablehlo.add_n" %0 {
    composite_attributes = { n = 2 : i64 },
    decomposition = @add_n.impl
  } : (tensor<i64>) -> tensor<i64>
  return %1 : tensor<i64>
}
)");
  CHECK(evaluate(addN, {})[0].getInt(0) == 3);

  // Without a decomposition there is nothing to compute.
  auto [place, message] = callErrorOf(R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.op" %x {composite_attributes = {n = 2 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  CHECK(place == "2:3");
  CHECK(message == "'stablehlo.composite' needs attribute 'decomposition'");
}

TEST_CASE("calls of functions that add no op still count against the inlining budget") {
  // @f0 calls @f1 twice, ... 30 levels, every callee returning its (sharded)
  // argument: 2^30 calls to inline, each a sharding_constraint; refused up
  // front instead of inlined for hours.
  std::string text = "sdy.mesh @mesh = <[\"a\"=2]>\n"
                     "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "  %0 = call @f0(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
                     "  return %0 : tensor<4xf32>\n}\n";
  for (int i = 0; i < 30; ++i) {
    std::string next = "@f" + std::to_string(i + 1);
    std::string body = i + 1 < 30 ? "  %0 = call " + next +
                                        "(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                        "  %1 = call " +
                                        next +
                                        "(%0) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                        "  return %1 : tensor<4xf32>\n"
                                  : "  return %a : tensor<4xf32>\n";
    text += "func.func private @f" + std::to_string(i) +
            "(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}) -> "
            "tensor<4xf32> {\n" +
            body + "}\n";
  }
  auto [place, message] = callErrorOf(text);
  CHECK(place == "3:3");
  CHECK(message == "inlining this call would take the graph past 1048576 inlined ops (every "
                   "func.call is inlined: the graph format has no functions)");
}
