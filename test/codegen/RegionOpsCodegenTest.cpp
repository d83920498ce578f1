// Ops with regions or data-flow edges compiled and run against the
// interpreter: a reduce of two inputs with a body of its own over a sharded
// reduced dim, and optimization_barrier.

#include <cstring>

#include <doctest/doctest.h>

#include "compiler/cli/GraphLoading.h"
#include "compiler/interp/Interpreter.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/ComplexMaxBody.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("a two-input reduce with an integer body over a sharded dim matches the interpreter") {
  for (const char *sharding : {"[{x}, {y}]", "[{}, {x, y}]", "[{y}, {}]"}) {
    INFO(sharding);
    Graph graph = loadVerified(
        graphOn2x2("sums",
                   R"({"name": "a", "type": "tensor<4x12xi32>", "sharding": "<@m, )" +
                       std::string(sharding) + R"(>"}, {"name": "b", "type": "tensor<4x12xi8>"})",
                   R"({"op": "constant", "result": "zero", "value": 0, "type": "tensor<i32>"},
           {"op": "constant", "result": "none", "value": 0, "type": "tensor<i8>"},
           {"op": "reduce", "operands": ["a", "b", "zero", "none"], "results": ["s", "x"],
            "dimensions": [1],
            "body": {"args": [{"name": "p", "type": "tensor<i32>"}, {"name": "q", "type": "tensor<i8>"},
                              {"name": "u", "type": "tensor<i32>"}, {"name": "v", "type": "tensor<i8>"}],
                     "ops": [{"op": "add", "operands": ["p", "u"], "result": "pu"},
                             {"op": "xor", "operands": ["q", "v"], "result": "qv"}],
                     "return": ["pu", "qv"]}})",
                   R"({"value": "s"}, {"value": "x"})"));
    CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
  }
}

TEST_CASE("optimization_barrier passes its operands through, resharded to its results") {
  Graph graph = loadVerified(
      graphOn2x2("barrier",
                 R"({"name": "a", "type": "tensor<8x4xf32>", "sharding": "<@m, [{x}, {}]>"},
         {"name": "b", "type": "tensor<8x4xf32>"})",
                 R"({"op": "optimization_barrier", "operands": ["a", "b"], "results": ["c", "d"],
          "shardings": [null, "<@m, [{}, {y}]>"]},
         {"op": "multiply", "operands": ["c", "d"], "result": "e"})",
                 R"({"value": "e"}, {"value": "d"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 9) == "");
}

TEST_CASE(
    "complex scalar bodies: lexicographic argmax, cummax, a sort by parts, abs, clamp, constants") {
  // JAX's complex max compares (real, imag) parts and selects the complex
  // values; a complex<f64> value and constant are 16 bytes in the body.
  for (const char *type : {"complex<f32>", "complex<f64>"}) {
    CAPTURE(type);
    const std::string t(type), part = t == "complex<f32>" ? "f32" : "f64";
    const std::string maxOps = testing::kComplexMaxOps;
    const std::string ops = R"(
      {"op": "constant", "result": "low", "type": "tensor<)" +
                            t + R"(>", "value": ["-inf", "-inf"]},
      {"op": "constant", "result": "zero", "type": "tensor<i32>", "value": 0},
      {"op": "reduce", "operands": ["a", "i", "low", "zero"], "results": ["amax", "at"],
       "dimensions": [1],
       "body": {"args": [{"name": "p", "type": "tensor<)" +
                            t + R"(>"},
                         {"name": "j", "type": "tensor<i32>"},
                         {"name": "q", "type": "tensor<)" +
                            t + R"(>"},
                         {"name": "k", "type": "tensor<i32>"}],
                "ops": [)" + maxOps +
                            R"(,
                        {"op": "select", "operands": ["first", "j", "k"], "result": "n"}],
                "return": ["m", "n"]}},
      {"op": "reduce_window", "operands": ["a", "low"], "result": "cummax",
       "window_dimensions": [1, 8], "padding": [[0, 0], [7, 0]],
       "body": {"args": [{"name": "p", "type": "tensor<)" +
                            t + R"(>"},
                         {"name": "q", "type": "tensor<)" +
                            t + R"(>"}],
                "ops": [)" + maxOps +
                            R"(], "return": ["m"]}},
      {"op": "sort", "operands": ["a"], "result": "sorted", "dimension": 1,
       "comparator": {"args": [{"name": "p", "type": "tensor<)" +
                            t + R"(>"},
                               {"name": "q", "type": "tensor<)" +
                            t + R"(>"}],
                      "ops": [{"op": "real", "operands": ["p"], "result": "pr"},
                              {"op": "real", "operands": ["q"], "result": "qr"},
                              {"op": "compare", "operands": ["pr", "qr"], "result": "less",
                               "comparison_direction": "LT", "compare_type": "TOTALORDER"}],
                      "return": ["less"]}},
      {"op": "constant", "result": "unit", "type": "tensor<)" +
                            t + R"(>", "value": [0, 0]},
      {"op": "reduce", "operands": ["b", "unit"], "result": "weighted", "dimensions": [1],
       "body": {"args": [{"name": "p", "type": "tensor<)" +
                            t + R"(>"},
                         {"name": "q", "type": "tensor<)" +
                            t + R"(>"}],
                "ops": [{"op": "constant", "result": "w", "type": "tensor<)" +
                            t + R"(>",
                         "value": [0.1, -3.25]},
                        {"op": "abs", "operands": ["q"], "result": "size"},
                        {"op": "constant", "result": "nought", "type": "tensor<)" +
                            part + R"(>",
                         "value": 0},
                        {"op": "complex", "operands": ["size", "nought"], "result": "sz"},
                        {"op": "multiply", "operands": ["w", "sz"], "result": "wq"},
                        {"op": "add", "operands": ["p", "wq"], "result": "s"},
                        {"op": "negate", "operands": ["w"], "result": "nw"},
                        {"op": "clamp", "operands": ["nw", "s", "w"], "result": "c"}],
                "return": ["c"]}})";
    const std::string inputs = R"({"name": "a", "type": "tensor<4x8x)" + t +
                               R"(>", "sharding": "<@m, [{x}, {y}]>"},
           {"name": "i", "type": "tensor<4x8xi32>", "sharding": "<@m, [{x}, {y}]>"},
           {"name": "b", "type": "tensor<4x6x)" +
                               t + R"(>", "sharding": "<@m, [{x}, {}]>"})";
    Graph graph = loadVerified(
        graphOn2x2("complex_bodies", inputs, ops,
                   R"({"value": "amax"}, {"value": "at"}, {"value": "cummax"}, {"value": "sorted"},
           {"value": "weighted"})"));
    CHECK(checkCompiledEqualsInterpreter(graph, 13) == "");
    // "weighted" (float arithmetic: no bound) reduces an unsharded dim in
    // the interpreter's order: the same bits.
    const std::vector<Literal> values = randomInputs(graph, 13);
    const std::vector<Literal> compiled = runCompiled(graph, values);
    const std::vector<Literal> expected = evaluateWithBounds(graph, values).values;
    REQUIRE(compiled.size() == 5);
    CHECK(std::memcmp(compiled[4].data(), expected[4].data(), expected[4].byteSize()) == 0);
  }
}

TEST_CASE("complex scalar bodies: scatter by the complex max, select_and_scatter by the modulus") {
  const std::string scatterBody =
      R"({"args": [{"name": "p", "type": "tensor<complex<f64>>"},
                   {"name": "q", "type": "tensor<complex<f64>>"}],
          "ops": [)" +
      std::string(testing::kComplexMaxOps) + R"(], "return": ["m"]})";
  const std::string ops = R"(
    {"op": "constant", "result": "idx", "type": "tensor<5x1xi32>", "value": [[1], [7], [1], [0], [3]]},
    {"op": "scatter", "operands": ["t", "idx", "u"], "result": "s",
     "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                   "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
     "update_computation": )" +
                          scatterBody +
                          R"(},
    {"op": "constant", "result": "zero", "type": "tensor<complex<f32>>", "value": [0, 0]},
    {"op": "select_and_scatter", "operands": ["o", "src", "zero"], "result": "ss",
     "window_dimensions": [2, 2], "window_strides": [2, 2],
     "select": {"args": [{"name": "p", "type": "tensor<complex<f32>>"},
                         {"name": "q", "type": "tensor<complex<f32>>"}],
                "ops": [{"op": "abs", "operands": ["p"], "result": "ap"},
                        {"op": "abs", "operands": ["q"], "result": "aq"},
                        {"op": "compare", "operands": ["ap", "aq"], "comparison_direction": "GE",
                         "result": "ge"}],
                "return": ["ge"]},
     "scatter": {"args": [{"name": "p", "type": "tensor<complex<f32>>"},
                          {"name": "q", "type": "tensor<complex<f32>>"}],
                 "ops": [{"op": "add", "operands": ["p", "q"], "result": "s"}], "return": ["s"]}})";
  const std::string inputs =
      R"({"name": "t", "type": "tensor<8x6xcomplex<f64>>", "sharding": "<@m, [{x}, {y}]>"},
         {"name": "u", "type": "tensor<5x6xcomplex<f64>>", "sharding": "<@m, [{y}, {}]>"},
         {"name": "o", "type": "tensor<8x8xcomplex<f32>>", "sharding": "<@m, [{x}, {y}]>"},
         {"name": "src", "type": "tensor<4x4xcomplex<f32>>"})";
  Graph graph = loadVerified(
      graphOn2x2("complex_scatters", inputs, ops, R"({"value": "s"}, {"value": "ss"})"));
  CHECK(checkCompiledEqualsInterpreter(graph, 17) == "");
}
