// Usual inputs and ops are read straight from their text; what they give
// must be what the JSON path gives. Spelling every string that starts with
// "n" with a \u escape sends every element through the JSON path.
#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/PlainElementReader.h"
#include "test/frontend/GraphEquality.h"

using namespace shardgen;
using shardgen::testing::checkSameGraph;

namespace {

std::string throughJsonPath(std::string text) {
  for (size_t at = text.find("\"n"); at != std::string::npos; at = text.find("\"n", at + 1))
    text.replace(at + 1, 1, "\\u006e");
  return text;
}

const char *kPlain = R"({"format": "shardgen-graph", "version": 1,
  "meshes": [{"name": "m", "axes": [{"name": "a", "size": 2}, {"name": "b", "size": 2}]}],
  "inputs": [{"name": "n0", "type": "tensor<4x8xf32>", "sharding": "<@m, [{\"a\"}, {}]>"},
             {"type": "tensor<8x2xf32>", "name": "n1"},
             {"name": "n2", "type": "tensor<4xf32>", "sharding": "<@m, [{a, ?}p1], replicated={\"b\"}>"}],
  "ops": [
    {"op": "dot_general", "operands": ["n0", "n1"], "result": "n3",
     "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
    {"op": "transpose", "operands": ["n3"], "result": "n4", "permutation": [1, 0],
     "sharding": "<@m, [{}, {\"b\"}]>"},
    {"op": "broadcast_in_dim", "operands": ["n2"], "result": "n5", "type": "tensor<4x2xf32>",
     "broadcast_dimensions": [0]},
    {"op": "add", "operands": ["n5", "n3"], "result": "n6"},
    {"op": "sharding_constraint", "operands": ["n6"], "result": "n7", "sharding": "<@m, [{}, {}]>"},
    {"op": "reshape", "operands": ["n7"], "result": "n8", "type": "tensor<8xf32>"},
    {"op": "tanh", "operands": ["n8"], "result": "n9", "_note": "through JSON"}
  ],
  "outputs": [{"value": "n9"}, {"value": "n4"}]})";

} // namespace

TEST_CASE("plain inputs and ops read as the JSON path reads them") {
  Graph plain = readGraph(kPlain);
  Graph json = readGraph(throughJsonPath(kPlain));
  checkSameGraph(plain, json);
  CHECK(plain.values[3].name == "n3");
  CHECK(plain.main.ops[1].shardings[0].has_value());
}

TEST_CASE("the plain reader takes usual elements and leaves the others") {
  Graph graph;
  NameTable names;
  PlainElementReader reader(graph, names);
  RegionArgument input;
  REQUIRE(reader.readInput(R"({"name": "x", "type": "tensor<2xf32>"})", "/inputs/0", input));
  CHECK(names.find("x") == input.value);
  Op op;
  CHECK(reader.readOp(R"({"op": "negate", "operands": ["x"], "result": "y"})", "/ops/0", op));
  CHECK(graph.values.size() == 2);
  // Each of these goes to the JSON path, nothing defined.
  for (const char *other :
       {R"({"op": "negate", "operands": ["x"], "result": "y"})",          // redefinition
        R"({"op": "negate", "operands": ["q"], "result": "z"})",          // unknown operand
        R"({"op": "negate", "operands": ["x"], "result": "z", "_k": 1})", // metadata
        R"({"op": "negate", "operands": ["x"], "results": ["z"]})",       // plural
        R"({"op": "transpose", "operands": ["x"], "result": "z"})",       // no permutation
        R"({"op": "transpose", "operands": ["x"], "result": "z", "permutation": [0.0]})",
        R"({"op": "reshape", "operands": ["x"], "result": "z"})", // no type
        R"({"op": "negate", "operands": ["x"], "result": "z", "type": "tensor<2xq>"})",
        R"({"op": "negate", "operands": ["x"], "result": "\u007a"})", // \u escape
        R"({"op": "iota", "result": "z", "type": "tensor<2xi32>", "iota_dimension": 0})",
        R"({"op": "negate", "operands": ["x"], "result": ""})"}) {
    CAPTURE(other);
    Op rejected;
    CHECK_FALSE(reader.readOp(other, "/ops/1", rejected));
  }
  CHECK(graph.values.size() == 2);
  CHECK_FALSE(names.find("z").has_value());
}
