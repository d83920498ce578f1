// Every structural error the reader reports, with its exact JSON pointer and
// message.
#include <doctest/doctest.h>

#include <string>

#include "compiler/frontend/GraphReader.h"
#include "compiler/ir/Diagnostic.h"

using namespace shardgen;

namespace {

/// A graph with inputs x, y (tensor<4xf32>), the given ops and outputs.
std::string graphWith(const std::string &ops, const std::string &outputs = "[]") {
  return R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "m", "axes": [{"name": "a", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<4xf32>"}, {"name": "y", "type": "tensor<4xf32>"}],
    "ops": )" +
         ops + R"(, "outputs": )" + outputs + "}";
}

struct Failure {
  std::string pointer, message;
};

Failure failureOf(const std::string &text) {
  try {
    readGraph(text);
  } catch (const GraphError &error) {
    return {error.pointer(), error.what()};
  }
  FAIL("expected a GraphError for: " << text);
  return {};
}

void expectReaderError(const std::string &text, const std::string &pointer,
                       const std::string &message) {
  Failure failure = failureOf(text);
  CHECK(failure.pointer == pointer);
  CHECK(failure.message == message);
}

} // namespace

TEST_CASE("reader errors: top level") {
  SUBCASE("not an object") {
    expectReaderError("[1, 2]", "", "expected an object, got an array for the graph");
  }
  SUBCASE("missing format") {
    expectReaderError(R"({"version": 1, "inputs": [], "ops": [], "outputs": []})", "/format",
                      "missing required key \"format\"");
  }
  SUBCASE("wrong format") {
    expectReaderError(R"({"format": "onnx", "version": 1, "inputs": [], "ops": [], "outputs": []})",
                      "/format", "unsupported format \"onnx\" (expected \"shardgen-graph\")");
  }
  SUBCASE("unsupported version") {
    expectReaderError(R"({"format": "shardgen-graph", "version": 2, "inputs": [], "ops": [],
                    "outputs": []})",
                      "/version", "unsupported version 2 (this shardgen reads version 1)");
  }
  SUBCASE("version as a string") {
    expectReaderError(R"({"format": "shardgen-graph", "version": "1", "inputs": [], "ops": [],
                    "outputs": []})",
                      "/version", "expected an integer, got a string");
  }
  SUBCASE("missing ops") {
    expectReaderError(R"({"format": "shardgen-graph", "version": 1, "inputs": [], "outputs": []})",
                      "/ops", "missing required key \"ops\"");
  }
  SUBCASE("unknown top-level key") {
    expectReaderError(R"({"format": "shardgen-graph", "version": 1, "inputs": [], "ops": [],
                    "outputs": [], "input": []})",
                      "/input", "unknown key \"input\" in the graph");
  }
  SUBCASE("inputs not an array") {
    expectReaderError(R"({"format": "shardgen-graph", "version": 1, "inputs": {}, "ops": [],
                    "outputs": []})",
                      "/inputs", "expected an array, got an object");
  }
}

TEST_CASE("reader errors: malformed JSON and files") {
  Failure failure = failureOf("{\"format\": \"shardgen-graph\",\n \"version\": 1,,}");
  CHECK(failure.pointer == "");
  CHECK(failure.message.rfind("malformed JSON: ", 0) == 0);
  CHECK(failure.message.find("line 2, column 15") != std::string::npos);

  try {
    readGraphFile("/nonexistent/graph.json");
    FAIL("expected an error");
  } catch (const GraphError &error) {
    CHECK(error.pointer() == "");
    CHECK(std::string(error.what()).rfind("cannot read file \"/nonexistent/graph.json\"", 0) == 0);
  }
}

TEST_CASE("reader errors: meshes, inputs and outputs") {
  auto withMeshes = [](const std::string &meshes) {
    return R"({"format": "shardgen-graph", "version": 1, "meshes": )" + meshes +
           R"(, "inputs": [], "ops": [], "outputs": []})";
  };
  SUBCASE("axis size not an integer") {
    expectReaderError(withMeshes(R"([{"name": "m", "axes": [{"name": "a", "size": 2.5}]}])"),
                      "/meshes/0/axes/0/size",
                      "expected an integer, got a number with a fraction or exponent");
  }
  SUBCASE("unknown mesh key") {
    expectReaderError(withMeshes(R"([{"name": "m", "shape": [2]}])"), "/meshes/0/shape",
                      "unknown key \"shape\" in mesh");
  }
  SUBCASE("device_ids with a string") {
    expectReaderError(withMeshes(R"([{"name": "m", "device_ids": [0, "1"]}])"),
                      "/meshes/0/device_ids/1",
                      "expected an array of integers, got a string element");
  }
  SUBCASE("missing mesh name") {
    expectReaderError(withMeshes(R"([{"axes": []}])"), "/meshes/0/name",
                      "missing required key \"name\"");
  }
  SUBCASE("bad input type") {
    expectReaderError(
        R"({"format": "shardgen-graph", "version": 1,
                    "inputs": [{"name": "x", "type": "tensor<4xf31>"}], "ops": [], "outputs": []})",
        "/inputs/0/type",
        "invalid tensor type \"tensor<4xf31>\": unknown element type \"f31\" (expected f32 "
        "f64 f16 bf16 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64 complex<f32> complex<f64> i2 i4 ui2 "
        "ui4 f8E3M4 f8E4M3 f8E4M3FN f8E4M3FNUZ f8E4M3B11FNUZ f8E5M2 f8E5M2FNUZ f8E8M0FNU f6E2M3FN "
        "f6E3M2FN f4E2M1FN)");
  }
  SUBCASE("input without a type") {
    expectReaderError(R"({"format": "shardgen-graph", "version": 1,
                    "inputs": [{"name": "x"}], "ops": [], "outputs": []})",
                      "/inputs/0/type", "missing required key \"type\"");
  }
  SUBCASE("duplicate input name") {
    expectReaderError(R"({"format": "shardgen-graph", "version": 1,
                    "inputs": [{"name": "x", "type": "tensor<f32>"},
                               {"name": "x", "type": "tensor<f32>"}], "ops": [], "outputs": []})",
                      "/inputs/1/name", "redefinition of value \"x\"");
  }
  SUBCASE("bad input sharding") {
    Failure failure = failureOf(R"({"format": "shardgen-graph", "version": 1,
        "inputs": [{"name": "x", "type": "tensor<4xf32>", "sharding": "<@m, [{a}>"}],
        "ops": [], "outputs": []})");
    CHECK(failure.pointer == "/inputs/0/sharding");
    CHECK(failure.message.rfind("invalid sharding \"<@m, [{a}>\"", 0) == 0);
  }
  SUBCASE("unknown output value") {
    expectReaderError(graphWith("[]", R"([{"value": "z"}])"), "/outputs/0/value",
                      "unknown value \"z\"");
  }
  SUBCASE("output as a plain string") {
    expectReaderError(graphWith("[]", R"(["x"])"), "/outputs/0",
                      "expected an object, got a string for output");
  }
  SUBCASE("unknown output key") {
    expectReaderError(graphWith("[]", R"([{"value": "x", "shardings": []}])"),
                      "/outputs/0/shardings", "unknown key \"shardings\" in output");
  }
}

TEST_CASE("reader errors: ops") {
  SUBCASE("unknown op") {
    expectReaderError(graphWith(R"([{"op": "foo", "operands": [], "result": "z"}])"), "/ops/0/op",
                      "unknown op \"foo\"");
  }
  SUBCASE("missing op") {
    expectReaderError(graphWith(R"([{"operands": ["x"], "result": "z"}])"), "/ops/0/op",
                      "missing required key \"op\"");
  }
  SUBCASE("missing operands") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "a"},
                              {"op": "add", "operands": ["x", "a"], "result": "b"},
                              {"op": "negate", "result": "c"}])"),
                      "/ops/2/operands", "missing required key \"operands\"");
  }
  SUBCASE("missing result") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "y"]}])"), "/ops/0/result",
                      "missing required key \"result\"");
  }
  SUBCASE("unknown key names the op") {
    expectReaderError(graphWith(R"([{"op": "dot_general", "operands": ["x", "y"], "result": "z",
                               "foo": 1}])"),
                      "/ops/0/foo", "unknown key \"foo\" in op \"dot_general\"");
  }
  SUBCASE("another op's attribute") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "z",
                               "permutation": [0]}])"),
                      "/ops/0/permutation", "unknown key \"permutation\" in op \"add\"");
  }
  SUBCASE("unknown operand") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "z"], "result": "w"}])"),
                      "/ops/0/operands/1", "unknown value \"z\"");
  }
  SUBCASE("operand used before it is defined") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "z"], "result": "w"},
                              {"op": "negate", "operands": ["x"], "results": ["z"]}])"),
                      "/ops/0/operands/1", "value \"z\" is used before it is defined");
  }
  SUBCASE("an op using its own result") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "z"], "result": "z"}])"),
                      "/ops/0/operands/1", "value \"z\" is used before it is defined");
  }
  SUBCASE("operand not a string") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", 3], "result": "w"}])"),
                      "/ops/0/operands/1", "expected a string, got an integer");
  }
  SUBCASE("redefinition") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "h"},
                              {"op": "add", "operands": ["x", "y"], "result": "h"}])"),
                      "/ops/1/result", "redefinition of value \"h\"");
  }
  SUBCASE("result shadows an input") {
    expectReaderError(
        graphWith(R"([{"op": "add", "operands": ["x", "y"], "results": ["h", "y"]}])"),
        "/ops/0/results/1", "redefinition of value \"y\"");
  }
  SUBCASE("result and results") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "a",
                               "results": ["b"]}])"),
                      "/ops/0/results", "an op has either \"result\" or \"results\", not both");
  }
  SUBCASE("types with result") {
    expectReaderError(graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "a",
                               "types": ["tensor<4xf32>"]}])"),
                      "/ops/0/types",
                      "\"types\" goes with \"results\"; an op with one \"result\" uses \"type\"");
  }
  SUBCASE("sharding with results") {
    expectReaderError(
        graphWith(R"([{"op": "add", "operands": ["x", "y"], "results": ["a"],
                               "sharding": "<@m, [{}]>"}])"),
        "/ops/0/sharding",
        "\"sharding\" goes with \"result\"; an op with \"results\" uses \"shardings\"");
  }
  SUBCASE("types count") {
    expectReaderError(
        graphWith(R"([{"op": "custom_call", "call_target_name": "f", "operands": ["x"],
                               "results": ["a", "b"], "types": ["tensor<4xf32>"]}])"),
        "/ops/0/types", "expected 2 entries in \"types\" (one per result), got 1");
  }
  SUBCASE("bad result type") {
    Failure failure = failureOf(graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "a",
                                                "type": "tensor<?xf32>"}])"));
    CHECK(failure.pointer == "/ops/0/type");
    CHECK(failure.message ==
          "invalid tensor type \"tensor<?xf32>\": dynamic shapes are not supported");
  }
  SUBCASE("bad sharding in shardings") {
    Failure failure = failureOf(graphWith(R"([{"op": "custom_call", "call_target_name": "f",
        "operands": ["x"], "results": ["a", "b"], "shardings": [null, "<@m [{}]>"]}])"));
    CHECK(failure.pointer == "/ops/0/shardings/1");
    CHECK(failure.message.rfind("invalid sharding", 0) == 0);
  }
  SUBCASE("reshape without a type") {
    expectReaderError(graphWith(R"([{"op": "reshape", "operands": ["x"], "result": "r"}])"),
                      "/ops/0/type", "\"reshape\" needs a result \"type\"");
  }
  SUBCASE("iota without a type") {
    expectReaderError(graphWith(R"([{"op": "iota", "iota_dimension": 0, "result": "r"}])"),
                      "/ops/0/type", "\"iota\" needs a result \"type\"");
  }
  SUBCASE("broadcast_in_dim without a type, plural form") {
    expectReaderError(graphWith(R"([{"op": "broadcast_in_dim", "operands": ["x"], "results": ["r"],
                               "broadcast_dimensions": [0]}])"),
                      "/ops/0/types", "\"broadcast_in_dim\" needs a result \"type\"");
  }
  SUBCASE("sharding_group with a result") {
    expectReaderError(graphWith(R"([{"op": "sharding_group", "operands": ["x"], "group_id": 0,
                               "result": "g"}])"),
                      "/ops/0/result", "\"sharding_group\" has no result");
  }
  SUBCASE("sharding_constraint without its sharding") {
    expectReaderError(
        graphWith(R"([{"op": "sharding_constraint", "operands": ["x"], "result": "c"}])"),
        "/ops/0/sharding", "missing required key \"sharding\"");
  }
  SUBCASE("op is not an object") {
    expectReaderError(
        graphWith(R"([{"op": "negate", "operands": ["x"], "result": "a"}, "negate"])"), "/ops/1",
        "expected an object, got a string for op");
  }
}

TEST_CASE("reader errors: attributes") {
  SUBCASE("missing permutation") {
    expectReaderError(graphWith(R"([{"op": "transpose", "operands": ["x"], "result": "t"}])"),
                      "/ops/0/permutation", "missing required key \"permutation\"");
  }
  SUBCASE("permutation not an array") {
    expectReaderError(graphWith(R"([{"op": "transpose", "operands": ["x"], "result": "t",
                               "permutation": "0"}])"),
                      "/ops/0/permutation", "expected an array of integers, got a string");
  }
  SUBCASE("dimension list with a float") {
    expectReaderError(
        graphWith(R"([{"op": "dot_general", "operands": ["x", "y"], "result": "d",
                               "lhs_contracting_dimensions": [0.5]}])"),
        "/ops/0/lhs_contracting_dimensions/0",
        "expected an array of integers, got a number with a fraction or exponent element");
  }
  SUBCASE("bad comparison direction") {
    expectReaderError(
        graphWith(R"([{"op": "compare", "operands": ["x", "y"], "result": "c",
                               "comparison_direction": "LESS"}])"),
        "/ops/0/comparison_direction",
        "invalid comparison_direction \"LESS\" (expected one of EQ, NE, LT, LE, GT, GE)");
  }
  SUBCASE("bad reducer") {
    expectReaderError(graphWith(R"([{"op": "reduce", "operands": ["x", "y"], "result": "r",
                               "dimensions": [0], "reducer": "sum"}])"),
                      "/ops/0/reducer",
                      "invalid reducer \"sum\" (expected one of add, mul, max, min, and, or)");
  }
  SUBCASE("bad allowed direction") {
    expectReaderError(
        graphWith(R"([{"op": "propagation_barrier", "operands": ["x"], "result": "b",
                               "allowed_direction": "forward"}])"),
        "/ops/0/allowed_direction",
        "invalid allowed_direction \"forward\" (expected one of NONE, FORWARD, BACKWARD, "
        "BOTH)");
  }
  SUBCASE("collective axes not strings") {
    expectReaderError(graphWith(R"([{"op": "all_gather", "operands": ["x"], "result": "g",
                               "axes": [0], "dimension": 0}])"),
                      "/ops/0/axes/0", "expected an array of strings, got an integer element");
  }
  SUBCASE("bad sharding rule") {
    Failure failure = failureOf(graphWith(R"j([{"op": "custom_call", "operands": ["x"],
        "result": "c", "call_target_name": "f", "sharding_rule": "([i]->([i])"}])j"));
    CHECK(failure.pointer == "/ops/0/sharding_rule");
    CHECK_FALSE(failure.message.empty());
  }
  SUBCASE("custom_call without a target") {
    expectReaderError(graphWith(R"([{"op": "custom_call", "operands": ["x"], "result": "c"}])"),
                      "/ops/0/call_target_name", "missing required key \"call_target_name\"");
  }
  SUBCASE("integer too large") {
    expectReaderError(graphWith(R"([{"op": "concatenate", "operands": ["x", "y"], "result": "c",
                               "dimension": 18446744073709551615}])"),
                      "/ops/0/dimension",
                      "integer 18446744073709551615 is too large (at most 2^63-1)");
  }
  SUBCASE("manual_computation bad in_sharding") {
    Failure failure = failureOf(graphWith(R"([{"op": "manual_computation", "operands": ["x"],
        "results": ["b"], "in_shardings": ["<@m, [{a}]>", "oops"], "out_shardings": [],
        "manual_axes": ["a"], "body": {"args": [], "ops": [], "return": []}}])"));
    CHECK(failure.pointer == "/ops/0/in_shardings/1");
    CHECK(failure.message.rfind("invalid sharding \"oops\"", 0) == 0);
  }
}

TEST_CASE("reader errors: manual computation bodies are their own scope") {
  auto manual = [](const std::string &body) {
    return graphWith(R"([{"op": "negate", "operands": ["x"], "result": "n"},
      {"op": "manual_computation", "operands": ["n"], "results": ["b"],
       "in_shardings": ["<@m, [{a}]>"], "out_shardings": ["<@m, [{a}]>"], "manual_axes": ["a"],
       "body": )" + body +
                     "}]");
  };
  SUBCASE("a body sees no outer names") {
    expectReaderError(manual(R"({"args": [{"name": "l", "type": "tensor<2xf32>"}],
        "ops": [{"op": "add", "operands": ["l", "x"], "result": "s"}], "return": ["s"]})"),
                      "/ops/1/body/ops/0/operands/1", "unknown value \"x\"");
  }
  SUBCASE("return names a body value") {
    expectReaderError(manual(R"({"args": [{"name": "l", "type": "tensor<2xf32>"}],
        "ops": [], "return": ["n"]})"),
                      "/ops/1/body/return/0", "unknown value \"n\"");
  }
  SUBCASE("body arg needs a type") {
    expectReaderError(manual(R"({"args": [{"name": "l"}], "ops": [], "return": ["l"]})"),
                      "/ops/1/body/args/0/type", "missing required key \"type\"");
  }
  SUBCASE("unknown body key") {
    expectReaderError(manual(R"({"args": [], "ops": [], "return": [], "results": []})"),
                      "/ops/1/body/results", "unknown key \"results\" in manual_computation body");
  }
  SUBCASE("unknown body arg key") {
    expectReaderError(manual(R"({"args": [{"name": "l", "type": "tensor<2xf32>", "typ": 1}],
        "ops": [], "return": ["l"]})"),
                      "/ops/1/body/args/0/typ", "unknown key \"typ\" in body argument");
  }
  SUBCASE("missing body") {
    expectReaderError(
        graphWith(R"([{"op": "manual_computation", "operands": ["x"], "results": ["b"],
        "in_shardings": [], "out_shardings": [], "manual_axes": []}])"),
        "/ops/0/body", "missing required key \"body\"");
  }
  SUBCASE("redefinition inside a body") {
    expectReaderError(manual(R"({"args": [{"name": "l", "type": "tensor<2xf32>"}],
        "ops": [{"op": "negate", "operands": ["l"], "result": "l"}], "return": ["l"]})"),
                      "/ops/1/body/ops/0/result", "redefinition of value \"l\"");
  }
  SUBCASE("nested bodies nest pointers") {
    expectReaderError(manual(R"({"args": [{"name": "l", "type": "tensor<2xf32>"}],
        "ops": [{"op": "manual_computation", "operands": ["l"], "results": ["i"],
                 "in_shardings": [], "out_shardings": [], "manual_axes": [],
                 "body": {"args": [{"name": "k", "type": "tensor<2xf32>"}],
                          "ops": [{"op": "abs", "operands": ["l"], "result": "q"}],
                          "return": ["q"]}}],
        "return": ["i"]})"),
                      "/ops/1/body/ops/0/body/ops/0/operands/0", "unknown value \"l\"");
  }
}

TEST_CASE("reader errors: JSON pointers escape '/' and '~'") {
  expectReaderError(
      graphWith(R"([{"op": "add", "operands": ["x", "y"], "result": "z", "a/b~c": 1}])"),
      "/ops/0/a~1b~0c", "unknown key \"a/b~c\" in op \"add\"");
}

TEST_CASE("reader errors: absurd nesting is refused, not a stack overflow") {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Failure failure = failureOf(R"({"format": "shardgen-graph", "version": 1, "inputs": [],
    "ops": [], "outputs": [], "_x": )" +
                              deep + "}");
  CHECK(failure.pointer == "");
  // Line 2 has 36 characters before the first '['; with the top-level object
  // at depth 1, the 256th '[' is the first too deep.
  CHECK(failure.message == "JSON nested deeper than 256 levels at line 2, column 292");
}

TEST_CASE("reader errors: the depth limit holds inside the inputs and ops read one at a time") {
  // The top-level object, "ops" and the op are 3 levels: 253 more arrays are
  // the limit, 254 one too many (the plain parser gives up, the scan reports).
  auto withOpNesting = [](int arrays) {
    return std::string(R"({"format": "shardgen-graph", "version": 1, "inputs": [], "ops": [)") +
           R"({"op": "iota", "type": "tensor<2xi32>", "result": "i", "_x": )" +
           std::string(static_cast<size_t>(arrays), '[') +
           std::string(static_cast<size_t>(arrays), ']') + R"(}], "outputs": []})";
  };
  CHECK(readGraph(withOpNesting(253)).main.ops.size() == 1);
  Failure failure = failureOf(withOpNesting(254));
  CHECK(failure.pointer == "");
  CHECK(failure.message == "JSON nested deeper than 256 levels at line 1, column 380");
  std::string inputs = std::string(R"({"format": "shardgen-graph", "version": 1, "inputs": [)") +
                       R"({"name": "x", "type": "tensor<2xf32>", "_x": )" + std::string(254, '[') +
                       std::string(254, ']') + R"(}], "ops": [], "outputs": []})";
  CHECK(failureOf(inputs).message == "JSON nested deeper than 256 levels at line 1, column 353");
}
