// Tokens in the interpreter: after_all as stablehlo/tests/interpret/after_all.mlir
// writes it, tokens carried through while, case and optimization_barrier
// beside data that is computed as without them, and a custom call given a
// token refused (its ABI passes tensors).
#include <doctest/doctest.h>

#include "compiler/mlir/MlirImporter.h"
#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

std::vector<Literal> evalTokens(const std::string &text, const std::vector<Literal> &inputs) {
  mlir::ImportedGraph imported = mlir::importMlir(text);
  verifyGraph(imported.graph);
  return evaluate(imported.graph, inputs);
}

} // namespace

TEST_CASE("after_all: a token of no elements, however many tokens it joins") {
  // stablehlo/tests/interpret/after_all.mlir
  std::vector<Literal> results = evalTokens(R"(func.func @main() -> !stablehlo.token {
  %input0 = stablehlo.after_all : !stablehlo.token
  %input1 = stablehlo.after_all : !stablehlo.token
  %result = stablehlo.after_all %input0, %input1 : !stablehlo.token
  func.return %result : !stablehlo.token
})",
                                            {});
  REQUIRE(results.size() == 1);
  CHECK(results[0].type() == tokenType());
  CHECK(results[0].numElements() == 0);
  CHECK(results[0].byteSize() == 0);
}

TEST_CASE("tokens carried through while, case and optimization_barrier") {
  const std::string text =
      R"(func.func @main(%t: !stablehlo.token, %i: tensor<i32>, %x: tensor<2xi64>) -> (!stablehlo.token, tensor<2xi64>, !stablehlo.token) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%iterArg = %t, %iterArg_0 = %c, %iterArg_1 = %x) : !stablehlo.token, tensor<i32>, tensor<2xi64>
   cond {
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %iterArg_0, %c_1 : tensor<i32>
    %2 = stablehlo.add %iterArg_1, %iterArg_1 : tensor<2xi64>
    %3 = stablehlo.after_all %iterArg : !stablehlo.token
    stablehlo.return %3, %1, %2 : !stablehlo.token, tensor<i32>, tensor<2xi64>
  }
  %4:2 = "stablehlo.case"(%i) ({
    stablehlo.return %0#0, %0#2 : !stablehlo.token, tensor<2xi64>
  }, {
    %5 = stablehlo.negate %0#2 : tensor<2xi64>
    %6 = stablehlo.create_token : !stablehlo.token
    stablehlo.return %6, %5 : !stablehlo.token, tensor<2xi64>
  }) : (tensor<i32>) -> (!stablehlo.token, tensor<2xi64>)
  %7:2 = stablehlo.optimization_barrier %4#0, %4#1 : !stablehlo.token, tensor<2xi64>
  func.return %7#0, %7#1, %0#0 : !stablehlo.token, tensor<2xi64>, !stablehlo.token
})";
  for (int64_t index : {0, 1}) {
    CAPTURE(index);
    std::vector<Literal> results =
        evalTokens(text, {Literal(tokenType()), intLiteral("tensor<i32>", {index}),
                          intLiteral("tensor<2xi64>", {1, -3})});
    REQUIRE(results.size() == 3);
    CHECK(results[0].type().isToken());
    CHECK(results[2].type().isToken());
    // Doubled three times; the second branch negates.
    CHECK(floats(results[1]) ==
          (index == 0 ? std::vector<double>{8, -24} : std::vector<double>{-8, 24}));
  }
}

TEST_CASE("a custom call given a token is refused when run") {
  mlir::ImportedGraph imported =
      mlir::importMlir(R"(func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.custom_call @sdy_testonly(%t) : (!stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
})");
  verifyGraph(imported.graph);
  EvalOptions options; // a target found: the kernel itself refuses the token
  options.customCallResolver = [](const std::string &) {
    return +[](shardgen_buffer *, int64_t, const shardgen_buffer *, int64_t) {};
  };
  try {
    evaluate(imported.graph, {Literal(tokenType())}, options);
    FAIL("accepted");
  } catch (const GraphError &error) {
    CHECK(error.pointer() == "/ops/0");
    CHECK(std::string(error.what())
              .find("takes or returns a !stablehlo.token; custom calls run "
                    "on tensors only") != std::string::npos);
  }
}
