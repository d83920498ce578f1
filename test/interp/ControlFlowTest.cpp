// while, case and if in the interpreter: the facts of StableHLO's
// interpreter tests (stablehlo/tests/interpret/while.mlir, case.mlir,
// if.mlir) and of the spec's examples, in MLIR as they are written there
// and in the JSON form; regions reading values of the enclosing regions.

#include <doctest/doctest.h>

#include "compiler/mlir/MlirImporter.h"
#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

std::vector<Literal> evalMlir(const std::string &body, const std::string &signature = "()",
                              const std::vector<Literal> &inputs = {}) {
  mlir::ImportedGraph imported =
      mlir::importMlir("func.func @main" + signature + " {\n" + body + "\n}");
  verifyGraph(imported.graph);
  return evaluate(imported.graph, inputs);
}

std::string caseWithIndex(int64_t index) {
  return "%index = stablehlo.constant dense<" + std::to_string(index) + R"(> : tensor<i32>
  %result_branch0 = stablehlo.constant dense<0> : tensor<2xi64>
  %result_branch1 = stablehlo.constant dense<1> : tensor<2xi64>
  %result0, %result1 = "stablehlo.case"(%index) ({
    stablehlo.return %result_branch0, %result_branch0 : tensor<2xi64>, tensor<2xi64>
  }, {
    stablehlo.return %result_branch1, %result_branch1 : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return %result0, %result1 : tensor<2xi64>, tensor<2xi64>)";
}

std::string ifWithPred(bool pred) {
  return std::string("%pred = stablehlo.constant dense<") + (pred ? "true" : "false") +
         R"(> : tensor<i1>
  %result0, %result1 = "stablehlo.if"(%pred) ({
    %0 = stablehlo.constant dense<0> : tensor<2xi64>
    stablehlo.return %0, %0 : tensor<2xi64>, tensor<2xi64>
  }, {
    %1 = stablehlo.constant dense<1> : tensor<2xi64>
    stablehlo.return %1, %1 : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<i1>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return %result0, %result1 : tensor<2xi64>, tensor<2xi64>)";
}

} // namespace

TEST_CASE("while: interpret/while.mlir (i = 0, sum = 0; while (i < 10) { sum += 1; i += 1 })") {
  std::vector<Literal> out = evalMlir(R"(
  %init_i = stablehlo.constant dense<0> : tensor<i64>
  %init_sum = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %results0, %results1 = stablehlo.while(%arg0 = %init_i, %arg1 = %init_sum) : tensor<i64>, tensor<i64>
  cond {
    %cond = stablehlo.compare LT, %arg0, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %cond : tensor<i1>
  } do {
    %new_sum = stablehlo.add %arg1, %one : tensor<i64>
    %new_i = stablehlo.add %arg0, %one : tensor<i64>
    stablehlo.return %new_i, %new_sum : tensor<i64>, tensor<i64>
  }
  func.return %results0, %results1 : tensor<i64>, tensor<i64>)",
                                      "() -> (tensor<i64>, tensor<i64>)");
  REQUIRE(out.size() == 2);
  CHECK(ints(out[0]) == std::vector<int64_t>{10});
  CHECK(ints(out[1]) == std::vector<int64_t>{10});
}

TEST_CASE("while: the spec's example in the generic form; a body that never runs") {
  const std::string loop = R"(
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %results0, %results1 = "stablehlo.while"(%init_i, %init_sum) ({
  ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
    %cond = "stablehlo.compare"(%arg0, %ten) {
      comparison_direction = #stablehlo<comparison_direction LT>
    } : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %cond : tensor<i1>
  }, {
  ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
    %new_sum = stablehlo.add %arg1, %one : tensor<i64>
    %new_i = stablehlo.add %arg0, %one : tensor<i64>
    stablehlo.return %new_i, %new_sum : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %results0, %results1 : tensor<i64>, tensor<i64>)";
  const std::string signature =
      "(%init_i: tensor<i64>, %init_sum: tensor<i64>) -> (tensor<i64>, tensor<i64>)";
  std::vector<Literal> out =
      evalMlir(loop, signature, {intLiteral("tensor<i64>", {1}), intLiteral("tensor<i64>", {0})});
  CHECK(ints(out[0]) == std::vector<int64_t>{10});
  CHECK(ints(out[1]) == std::vector<int64_t>{9});
  // cond false at once: the operands are the results.
  out =
      evalMlir(loop, signature, {intLiteral("tensor<i64>", {12}), intLiteral("tensor<i64>", {5})});
  CHECK(ints(out[0]) == std::vector<int64_t>{12});
  CHECK(ints(out[1]) == std::vector<int64_t>{5});
}

TEST_CASE("case: interpret/case.mlir (index -1 and 2 take the last branch, 0 the first)") {
  for (auto [index, expected] : {std::pair<int64_t, int64_t>{-1, 1}, {0, 0}, {1, 1}, {2, 1}}) {
    CAPTURE(index);
    std::vector<Literal> out =
        evalMlir(caseWithIndex(index), "() -> (tensor<2xi64>, tensor<2xi64>)");
    CHECK(ints(out[0]) == std::vector<int64_t>{expected, expected});
    CHECK(ints(out[1]) == std::vector<int64_t>{expected, expected});
  }
}

TEST_CASE("if: interpret/if.mlir (true runs true_branch, false false_branch)") {
  for (auto [pred, expected] : {std::pair<bool, int64_t>{true, 0}, {false, 1}}) {
    CAPTURE(pred);
    std::vector<Literal> out = evalMlir(ifWithPred(pred), "() -> (tensor<2xi64>, tensor<2xi64>)");
    CHECK(ints(out[0]) == std::vector<int64_t>{expected, expected});
    CHECK(ints(out[1]) == std::vector<int64_t>{expected, expected});
  }
}

TEST_CASE("JSON form: a loop scaling a tensor, a case in its body reading outer values") {
  // x = [1, 2]; for i in 0..3: x = case(i % 2) { 0: x * s, 1: x + s } with
  // s = [10, 10] defined outside the loop.
  const std::string json = R"({"format": "shardgen-graph", "version": 1,
  "inputs": [{"name": "x", "type": "tensor<2xf32>"}],
  "ops": [
    {"op": "constant", "result": "zero", "value": 0, "type": "tensor<i32>"},
    {"op": "constant", "result": "s", "value": [10, 10], "type": "tensor<2xf32>"},
    {"op": "while", "operands": ["zero", "x"], "results": ["n", "y"],
     "cond": {"args": [{"name": "i", "type": "tensor<i32>"}, {"name": "v", "type": "tensor<2xf32>"}],
              "ops": [{"op": "constant", "result": "three", "value": 3, "type": "tensor<i32>"},
                      {"op": "compare", "operands": ["i", "three"], "result": "more",
                       "comparison_direction": "LT"}],
              "return": ["more"]},
     "body": {"args": [{"name": "j", "type": "tensor<i32>"}, {"name": "w", "type": "tensor<2xf32>"}],
              "ops": [{"op": "constant", "result": "one", "value": 1, "type": "tensor<i32>"},
                      {"op": "constant", "result": "two", "value": 2, "type": "tensor<i32>"},
                      {"op": "remainder", "operands": ["j", "two"], "result": "parity"},
                      {"op": "case", "operands": ["parity"], "result": "stepped",
                       "branches": [
                         {"args": [], "ops": [{"op": "multiply", "operands": ["w", "s"], "result": "p"}],
                          "return": ["p"]},
                         {"args": [], "ops": [{"op": "add", "operands": ["w", "s"], "result": "q"}],
                          "return": ["q"]}]},
                      {"op": "add", "operands": ["j", "one"], "result": "next"}],
              "return": ["next", "stepped"]}}],
  "outputs": [{"value": "y"}, {"value": "n"}]})";
  Graph graph = loadGraph(json);
  std::vector<Literal> out = evaluate(graph, {literal("tensor<2xf32>", {1, 2})});
  // ((x * 10) + 10) * 10
  CHECK(floats(out[0]) == std::vector<double>{200, 300});
  CHECK(ints(out[1]) == std::vector<int64_t>{3});
  // The error bounds of a loop come from its body's ops (run --check).
  BoundedEvaluation bounded = evaluateWithBounds(graph, {literal("tensor<2xf32>", {1, 2})});
  CHECK(floats(bounded.values[0]) == std::vector<double>{200, 300});
  CHECK(bounded.bounds.size() == 2);
}

TEST_CASE("a path that compiled code may take otherwise makes the results' bounds unknown") {
  // sum([0.1, 0.2, -0.3]) > 0 depends on the order of the sum (sharded, it
  // may be another): the branch is uncertain, any result is right. A
  // constant predicate is certain: the branch's own bounds hold.
  auto graphWith = [](const std::string &pred) {
    return R"({"format": "shardgen-graph", "version": 1,
    "inputs": [{"name": "x", "type": "tensor<3xf32>"}],
    "ops": [
      {"op": "constant", "result": "zero", "value": 0, "type": "tensor<f32>"},
      {"op": "reduce", "operands": ["x", "zero"], "result": "sum", "dimensions": [0], "reducer": "add"},
      {"op": "constant", "result": "yes", "value": true, "type": "tensor<i1>"},
      {"op": "compare", "operands": ["sum", "zero"], "result": "positive", "comparison_direction": "GT"},
      {"op": "if", "operands": [")" +
           pred + R"("], "result": "y",
       "true_branch": {"args": [], "ops": [{"op": "add", "operands": ["x", "x"], "result": "twice"}],
                       "return": ["twice"]},
       "false_branch": {"args": [], "ops": [{"op": "negate", "operands": ["x"], "result": "neg"}],
                        "return": ["neg"]}}],
    "outputs": [{"value": "y"}]})";
  };
  const Literal x = literal("tensor<3xf32>", {0.1, 0.2, -0.3});
  BoundedEvaluation uncertain = evaluateWithBounds(loadGraph(graphWith("positive")), {x});
  for (double bound : floats(uncertain.bounds[0]))
    CHECK(bound == kInf);
  BoundedEvaluation certain = evaluateWithBounds(loadGraph(graphWith("yes")), {x});
  CHECK(floats(certain.values[0]) == floats(evalOne(graphWith("yes"), {x})));
  for (double bound : floats(certain.bounds[0]))
    CHECK(bound < kInf);
}
