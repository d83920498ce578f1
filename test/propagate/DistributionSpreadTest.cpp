// How distributions spread (spec "Distributions"): forward and backward
// through elementwise ops and reduces over whole dims, never into values a
// user sharding reaches first; then Shardy propagation with distributed
// values closed; what `propagate` writes and what `explain` says.
#include <doctest/doctest.h>

#include "compiler/ir/Diagnostic.h"
#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kSpreadMesh = R"({"name": "x", "size": 2}, {"name": "y", "size": 2})";

std::string dist(const std::string &shape, const std::string &order = "row_major") {
  return R"({"mesh": "mesh", "shard_shape": )" + shape + R"(, "order": ")" + order + "\"}";
}

Propagated spread(const std::string &inputs, const std::string &ops, const std::string &outputs) {
  return propagate(graphJson(kSpreadMesh, inputs, ops, outputs));
}

/// The value's distribution as `{...}` text, or "none".
std::string distributionOf(const Propagated &p, const std::string &name) {
  const auto &d = p.result.distributionOf(valueNamed(p.graph, name));
  return d ? printDistribution(*d) : "none";
}

bool has(const std::string &text, const std::string &piece) {
  return text.find(piece) != std::string::npos;
}

const std::string kInput4x8 = R"({"name": "a", "type": "tensor<4x8xf32>", "distribution": )";

/// a -> tanh b -> multiply by a splat constant c -> reduce over dims.
std::string chainOps(const std::string &reduceDims) {
  return R"({"op": "tanh", "operands": ["a"], "result": "b"},
            {"op": "constant", "result": "k", "type": "tensor<4x8xf32>", "value": 2.0},
            {"op": "multiply", "operands": ["b", "k"], "result": "c"},
            {"op": "constant", "result": "zero", "type": "tensor<f32>", "value": 0.0},
            {"op": "reduce", "operands": ["c", "zero"], "result": "s", "dimensions": )" +
         reduceDims + R"(, "reducer": "add"})";
}

} // namespace

TEST_CASE("forward: through elementwise ops (a constant joins) and a reduce over whole dims") {
  auto p = spread(kInput4x8 + dist("[1, 8]") + "}", chainOps("[1]"), R"({"value": "s"})");
  CHECK(distributionOf(p, "a") == dist("[1, 8]"));
  CHECK(distributionOf(p, "b") == dist("[1, 8]"));
  CHECK(distributionOf(p, "c") == dist("[1, 8]"));
  CHECK(distributionOf(p, "s") == dist("[1]")); // the reduced dim dropped
  CHECK(distributionOf(p, "k") == "none");      // joins as it is
  CHECK(distributionOf(p, "zero") == "none");
  CHECK(p.origin("a") == "user:/inputs/0/distribution");
  CHECK(p.origin("b") == "op:/ops/0");
  CHECK(p.origin("c") == "op:/ops/2");
  CHECK(p.origin("s") == "op:/ops/4");
  REQUIRE(p.result.outputDistributions.size() == 1);
  CHECK(printDistribution(*p.result.outputDistributions[0]) == dist("[1]"));
  CHECK(p.result.outputOrigins[0].str() == "op:/outputs/0");
}

TEST_CASE("a reduce over a dim the chunks split stops the distribution") {
  auto p = spread(kInput4x8 + dist("[2, 4]") + "}", chainOps("[1]"), R"({"value": "s"})");
  CHECK(distributionOf(p, "c") == dist("[2, 4]"));
  CHECK(distributionOf(p, "s") == "none");
  CHECK_FALSE(p.result.outputDistributions[0]);
  std::string text = explainValue(p.graph, p.result, "s");
  CAPTURE(text);
  CHECK(has(text, "not distributed:\n"
                  "  - reduce /ops/4 reduces dim 1 of \"c\", which its chunks split "
                  "(shard_shape 4 of 8)\n"));
  // A reduce over dim 0, which each [4, 2] chunk holds whole, passes.
  auto whole =
      spread(kInput4x8 + dist("[4, 2]", "col_major") + "}", chainOps("[0]"), R"({"value": "s"})");
  CHECK(distributionOf(whole, "s") == dist("[2]", "col_major"));
}

TEST_CASE("backward: an output's distribution reaches back through a reduce and tanh") {
  auto p = spread(R"({"name": "a", "type": "tensor<4x8xf32>"})",
                  R"({"op": "tanh", "operands": ["a"], "result": "b"},
                     {"op": "constant", "result": "zero", "type": "tensor<f32>", "value": 0.0},
                     {"op": "reduce", "operands": ["b", "zero"], "result": "s",
                      "dimensions": [1], "reducer": "max"})",
                  R"({"value": "s", "distribution": )" + dist("[2]") + "}");
  CHECK(distributionOf(p, "s") == dist("[2]"));
  CHECK(distributionOf(p, "b") == dist("[2, 8]")); // the reduced dim whole
  CHECK(distributionOf(p, "a") == dist("[2, 8]"));
  CHECK(p.origin("s") == "user:/outputs/0/distribution");
  CHECK(p.origin("b") == "op:/ops/2");
  CHECK(p.origin("a") == "op:/ops/0");
  CHECK(p.result.outputOrigins[0].str() == "user:/outputs/0/distribution");
}

TEST_CASE("backward through a binary op only when every operand can take it") {
  std::string inputs = R"({"name": "a", "type": "tensor<4x8xf32>"},
                          {"name": "w", "type": "tensor<4x8xf32>"})";
  std::string ops = R"({"op": "add", "operands": ["a", "w"], "result": "c"})";
  auto free = spread(inputs, ops, R"({"value": "c", "distribution": )" + dist("[1, 8]") + "}");
  CHECK(distributionOf(free, "a") == dist("[1, 8]"));
  CHECK(distributionOf(free, "w") == dist("[1, 8]"));

  std::string pinned = R"({"name": "a", "type": "tensor<4x8xf32>"},
                          {"name": "w", "type": "tensor<4x8xf32>", "sharding": "<@mesh, [{x}, {}]>"})";
  auto p = spread(pinned, ops, R"({"value": "c", "distribution": )" + dist("[1, 8]") + "}");
  CHECK(distributionOf(p, "c") == dist("[1, 8]"));
  CHECK(distributionOf(p, "a") == "none");
  CHECK(distributionOf(p, "w") == "none");
  std::string text = explainValue(p.graph, p.result, "a");
  CAPTURE(text);
  CHECK(has(text, "  - add /ops/0: operand \"w\" has a user sharding (/inputs/1/sharding)\n"));
}

TEST_CASE("never into a value a user sharding reaches first") {
  auto p =
      spread(kInput4x8 + dist("[1, 8]") + "}",
             R"({"op": "tanh", "operands": ["a"], "result": "b", "sharding": "<@mesh, [{x}, {}]>"},
                     {"op": "negate", "operands": ["a"], "result": "n"},
                     {"op": "exponential", "operands": ["a"], "result": "e"},
                     {"op": "sharding_constraint", "operands": ["e"], "result": "f",
                      "sharding": "<@mesh, [{}, {y}]>"})",
             R"({"value": "b"}, {"value": "n", "sharding": "<@mesh, [{}, {x}]>"},
                     {"value": "f"})");
  CHECK(distributionOf(p, "b") == "none"); // its own sharding
  CHECK(distributionOf(p, "n") == "none"); // the output's sharding
  CHECK(distributionOf(p, "e") == "none"); // the constraint applies to its single-use operand
  CHECK(p.sharding("b") == R"(<@mesh, [{"x"}, {}]>)");
  CHECK(p.sharding("n") == R"(<@mesh, [{}, {"x"}]>)");
  CHECK(p.sharding("e") == R"(<@mesh, [{}, {"y"}]>)");
  std::string text = explainValue(p.graph, p.result, "b");
  CAPTURE(text);
  CHECK(has(text, "not distributed:\n  - a user sharding reaches it first (/ops/0/sharding)\n"));
  CHECK(has(explainValue(p.graph, p.result, "n"),
            "  - a user sharding reaches it first (/outputs/1/sharding)\n"));
}

TEST_CASE("scalars join select and clamp; two different distributions stop each other") {
  auto p = spread(kInput4x8 + dist("[1, 8]") + R"(},
                  {"name": "p", "type": "tensor<i1>"},
                  {"name": "lo", "type": "tensor<f32>"},
                  {"name": "q", "type": "tensor<4x8xf32>", "distribution": )" +
                      dist("[2, 8]") + "}",
                  R"({"op": "negate", "operands": ["a"], "result": "n"},
                     {"op": "select", "operands": ["p", "a", "n"], "result": "sel"},
                     {"op": "clamp", "operands": ["lo", "sel", "lo"], "result": "cl"},
                     {"op": "compare", "operands": ["cl", "a"], "result": "cmp",
                      "comparison_direction": "LT"},
                     {"op": "convert", "operands": ["cmp"], "result": "cv", "type": "tensor<4x8xf32>"},
                     {"op": "add", "operands": ["cv", "q"], "result": "mixed"})",
                  R"({"value": "mixed"})");
  for (const char *name : {"n", "sel", "cl", "cmp", "cv"}) {
    CAPTURE(name);
    CHECK(distributionOf(p, name) == dist("[1, 8]"));
  }
  CHECK(distributionOf(p, "p") == "none");
  CHECK(distributionOf(p, "mixed") == "none");
  std::string text = explainValue(p.graph, p.result, "mixed");
  CAPTURE(text);
  CHECK(has(text, "  - add /ops/5: its operands \"cv\" and \"q\" have different distributions\n"));
}

TEST_CASE("Shardy propagation treats distributed values as closed: they neither give nor take") {
  auto p = spread(kInput4x8 + dist("[1, 8]") + R"(},
                  {"name": "w", "type": "tensor<4x8xf32>", "sharding": "<@mesh, [{x}, {y}]>"})",
                  R"({"op": "add", "operands": ["a", "w"], "result": "c"},
                     {"op": "tanh", "operands": ["a"], "result": "t"},
                     {"op": "dot_general", "operands": ["t", "w"], "result": "d",
                      "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [1]})",
                  R"({"value": "c"}, {"value": "d"})");
  CHECK(distributionOf(p, "t") == dist("[1, 8]"));
  CHECK(distributionOf(p, "c") == "none");
  CHECK(p.sharding("c") == R"(<@mesh, [{"x"}, {"y"}]>)"); // from w alone
  CHECK(p.sharding("d") == R"(<@mesh, [{}, {"x"}]>)");    // w's dim 0; nothing from t
  CHECK(p.sharding("a") == R"(<@mesh, [{}, {}]>)");       // a placeholder: not written
  std::string text = explainValue(p.graph, p.result, "c");
  CAPTURE(text);
  CHECK(has(text, "  - add /ops/0: operand \"w\" has a user sharding (/inputs/1/sharding)\n"));
}

TEST_CASE("distribute is a user distribution on its result and passes nothing back") {
  auto p = spread(R"({"name": "a", "type": "tensor<4x8xf32>"})",
                  R"({"op": "tanh", "operands": ["a"], "result": "b"},
                     {"op": "distribute", "operands": ["b"], "result": "z", "distribution": )" +
                      dist("[3, 3]") + R"(},
                     {"op": "abs", "operands": ["z"], "result": "y"})",
                  R"({"value": "y"})");
  CHECK(distributionOf(p, "b") == "none");
  CHECK(distributionOf(p, "z") == dist("[3, 3]"));
  CHECK(distributionOf(p, "y") == dist("[3, 3]"));
  CHECK(p.origin("z") == "user:/ops/1/distribution");
  std::string text = explainValue(p.graph, p.result, "b");
  CAPTURE(text);
  CHECK(has(text, "  - distribute /ops/1 does not pass distributions (from \"z\")\n"));
}

TEST_CASE("explain: a distributed value's chain back to the user's distribution") {
  auto p = spread(kInput4x8 + dist("[1, 8]") + "}", chainOps("[1]"), R"({"value": "s"})");
  std::string text = explainValue(p.graph, p.result, "s");
  CHECK(text == "value \"s\": distribution " + dist("[1]") +
                    "\n"
                    "origin:\n"
                    "  \"s\" " +
                    dist("[1]") +
                    ": spread through reduce /ops/4 from \"c\"\n"
                    "  \"c\" " +
                    dist("[1, 8]") +
                    ": spread through multiply /ops/2 from \"b\"\n"
                    "  \"b\" " +
                    dist("[1, 8]") +
                    ": spread through tanh /ops/0 from \"a\"\n"
                    "  \"a\" " +
                    dist("[1, 8]") +
                    ": user distribution at /inputs/0/distribution\n"
                    "Shardy propagation treats it as closed: it neither gives nor takes axes\n");
  std::string constant = explainValue(p.graph, p.result, "k");
  CAPTURE(constant);
  CHECK(has(constant, "not distributed:\n  - a constant joins distributed ops as it is\n"));
}

TEST_CASE("propagate writes distributions with _origin, and propagating again changes nothing") {
  std::string json =
      graphJson(kSpreadMesh,
                R"({"name": "a", "type": "tensor<4x8xf32>"},
         {"name": "w", "type": "tensor<4x8xf32>", "sharding": "<@mesh, [{x}, {}]>"})",
                chainOps("[1]") + R"(, {"op": "add", "operands": ["a", "w"], "result": "m"})",
                R"({"value": "s", "distribution": )" + dist("[2]") + R"(}, {"value": "m"})");
  auto first = propagate(json);
  applyPropagation(first.graph, first.result);
  std::string once = writeGraph(first.graph);
  CAPTURE(once);
  CHECK(has(once, R"("name": "a",
      "type": "tensor<4x8xf32>",
      "distribution": )" +
                      dist("[2, 8]") + R"(,
      "_origin": "op:/ops/0")"));
  CHECK(has(once, R"("result": "s",
      "distribution": )" +
                      dist("[2]") + R"(,
      "dimensions": [1],
      "reducer": "add",
      "_origin": "user:/outputs/0/distribution")"));
  // m is not distributed (w is sharded): it has a sharding, from w.
  CHECK(has(once, R"("result": "m",
      "sharding": "<@mesh, [{\"x\"}, {}]>")"));
  auto second = propagate(once);
  applyPropagation(second.graph, second.result);
  CHECK(writeGraph(second.graph) == once);
}
