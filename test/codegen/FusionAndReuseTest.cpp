// Fused elementwise chains and buffer reuse: the compiled program still
// equals the reference interpreter, fused loops replace the chain's
// intermediates, output is byte-identical across runs, and the arena of a
// long chain holds a few live values instead of all of them.

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string fusionGraph(const std::string &inputs, const std::string &ops,
                        const std::string &outputs) {
  return graphOn2x2("fusion", inputs, ops, outputs);
}

/// y = tanh(a * x + b) on 5x6 pieces split unevenly (3 and 2 rows) over x.
const std::string kChain = fusionGraph(
    R"({"name": "a", "type": "tensor<5x6xf32>", "sharding": "<@m, [{x}, {}]>"},
       {"name": "x", "type": "tensor<5x6xf32>", "sharding": "<@m, [{x}, {}]>"},
       {"name": "b", "type": "tensor<5x6xf32>", "sharding": "<@m, [{x}, {}]>"})",
    R"({"op": "multiply", "operands": ["a", "x"], "result": "ax"},
       {"op": "add", "operands": ["ax", "b"], "result": "axb"},
       {"op": "tanh", "operands": ["axb"], "result": "y"})",
    R"({"value": "y", "sharding": "<@m, [{x}, {}]>"})");

int64_t arenaBytes(const std::string &source) {
  const std::string key = "kArenaBytes = ";
  size_t at = source.find(key);
  REQUIRE(at != std::string::npos);
  return std::stoll(source.substr(at + key.size()));
}

} // namespace

TEST_CASE("an elementwise chain is one fused loop that names every op") {
  Graph graph = loadVerified(kChain);
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  CHECK(countOccurrences(generated.source, "fusedElementwise<") == 2); // 3-row and 2-row devices
  CHECK(generated.source.find("/ops/0, /ops/1, /ops/2 (fused)") != std::string::npos);
  CHECK(generated.source.find("binary<") == std::string::npos);
  CHECK(generated.source.find("unary<") == std::string::npos);
  Graph again = loadVerified(kChain);
  CHECK(checkCompiledEqualsInterpreter(again, 7) == "");
}

TEST_CASE("fused output is byte-identical across generations and runs") {
  Graph first = loadVerified(kChain), second = loadVerified(kChain);
  SpmdProgram programA = partitionVerified(first);
  SpmdProgram programB = partitionVerified(second);
  GeneratedProgram a = generateProgram(programA), b = generateProgram(programB);
  CHECK(a.source == b.source);
  std::vector<Literal> inputs = randomInputs(first, 11);
  CompiledProgram compiledA(programA, a), compiledB(programB, b);
  std::vector<Literal> outA = compiledA.run(inputs), outB = compiledB.run(inputs);
  REQUIRE(outA.size() == 1);
  REQUIRE(outB.size() == 1);
  CHECK(outA[0].byteSize() == outB[0].byteSize());
  CHECK(std::memcmp(outA[0].data(), outB[0].data(), outA[0].byteSize()) == 0);
}

TEST_CASE("values used twice, program outputs and collectives stop fusion") {
  // s = x + x is used by two ops: it is stored; n is an output: stored too.
  // The replicated sharding_constraint needs p gathered first: no fusion
  // across that collective.
  std::string json =
      fusionGraph(R"({"name": "x", "type": "tensor<4x8xf32>", "sharding": "<@m, [{x}, {y}]>"})",
                  R"({"op": "add", "operands": ["x", "x"], "result": "s"},
         {"op": "negate", "operands": ["s"], "result": "n"},
         {"op": "multiply", "operands": ["s", "n"], "result": "p"},
         {"op": "exponential", "operands": ["p"], "result": "e"},
         {"op": "sharding_constraint", "operands": ["e"], "result": "r",
          "sharding": "<@m, [{}, {}]>"},
         {"op": "abs", "operands": ["r"], "result": "q"},
         {"op": "sqrt", "operands": ["q"], "result": "z"})",
                  R"({"value": "n", "sharding": "<@m, [{x}, {y}]>"}, {"value": "z"})");
  Graph graph = loadVerified(json);
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  INFO(generated.source);
  // add (used twice) and negate (an output) are emitted alone.
  CHECK(generated.source.find("// /ops/0: s = add(x, x)") != std::string::npos);
  CHECK(generated.source.find("// /ops/1: n = negate(s)") != std::string::npos);
  // The replicated constraint makes p move (all_gather) before exponential:
  // multiply stays alone; exponential, abs and sqrt fuse after the move
  // (the constraint itself is no step of its own).
  CHECK(generated.source.find("all_gather of p") != std::string::npos);
  CHECK(generated.source.find("// /ops/2: p = multiply(s, n)") != std::string::npos);
  CHECK(generated.source.find("/ops/5, /ops/6 (fused)") != std::string::npos);
  CHECK(countOccurrences(generated.source, "(fused)") == 1);
  Graph again = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(again, 3) == "");
}

TEST_CASE("fused f16, integer and i1 chains round and wrap like unfused ones") {
  std::string json = fusionGraph(
      R"({"name": "h", "type": "tensor<6x4xf16>", "sharding": "<@m, [{y}, {}]>"},
         {"name": "i", "type": "tensor<6x4xi32>", "sharding": "<@m, [{x}, {}]>"},
         {"name": "p", "type": "tensor<6x4xi1>", "sharding": "<@m, [{}, {x}]>"})",
      R"({"op": "multiply", "operands": ["h", "h"], "result": "h2"},
         {"op": "add", "operands": ["h2", "h"], "result": "h3"},
         {"op": "logistic", "operands": ["h3"], "result": "h4"},
         {"op": "multiply", "operands": ["i", "i"], "result": "i2"},
         {"op": "subtract", "operands": ["i2", "i"], "result": "i3"},
         {"op": "divide", "operands": ["i3", "i"], "result": "i4"},
         {"op": "not", "operands": ["p"], "result": "np"},
         {"op": "xor", "operands": ["np", "p"], "result": "xp"})",
      R"({"value": "h4"}, {"value": "i4"}, {"value": "xp"})");
  Graph graph = loadVerified(json);
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  CHECK(countOccurrences(generated.source, "(fused)") == 3);
  Graph again = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(again, 4) == "");
}

TEST_CASE("a long chain reuses buffers and stays correct") {
  // 40 steps x -> transpose -> negate -> transpose -> ... on 16x16 f32
  // (1 KiB per value, 41 values). No two neighbours fuse (transposes are not
  // elementwise), so every value is stored, but at most three are live at
  // once: the arena needs a handful of slots, not 41.
  std::string ops;
  std::string previous = "x";
  for (int i = 0; i < 40; ++i) {
    std::string name = "v" + std::to_string(i);
    ops += std::string(i ? ", " : "") +
           (i % 2 == 0 ? R"({"op": "transpose", "permutation": [1, 0], "operands": [")"
                       : R"({"op": "negate", "operands": [")") +
           previous + R"("], "result": ")" + name + "\"}";
    previous = name;
  }
  std::string json = fusionGraph(R"({"name": "x", "type": "tensor<16x16xf32>"})", ops,
                                 R"({"value": ")" + previous + R"("}, {"value": "v7"})");
  Graph graph = loadVerified(json);
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  const int64_t valueBytes = 16 * 16 * 4;
  CHECK(arenaBytes(generated.source) <= 4 * valueBytes);
  Graph again = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(again, 9) == "");
}

TEST_CASE("a word copy reads what an inlined float kernel wrote to reused memory") {
  // exp (inlined, vectorized) writes u as floats into the slot the all_slice
  // of in1 wrote as words; pad then copies u as words. Without may-alias
  // word accesses, type-based alias analysis let the pad's loads move above
  // the float stores and read in1's words (found by the random graphs).
  std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "tbaa",
    "meshes": [{"name": "mesh", "axes": [{"name": "a", "size": 3}, {"name": "b", "size": 2}]}],
    "inputs": [{"name": "in1", "type": "tensor<6xf32>", "sharding": "<@mesh, [{}]>"}],
    "ops": [
      {"op": "broadcast_in_dim", "operands": ["in1"], "type": "tensor<1x6xf32>",
       "broadcast_dimensions": [1], "result": "bc3"},
      {"op": "exponential", "operands": ["in1"], "result": "u4"},
      {"op": "broadcast_in_dim", "operands": ["bc3"], "type": "tensor<2x1x6xf32>",
       "broadcast_dimensions": [0, 2], "result": "bc5", "sharding": "<@mesh, [{}, {b}, {a}]>"},
      {"op": "constant", "type": "tensor<f32>", "value": 2.0, "result": "c6"},
      {"op": "pad", "operands": ["u4", "c6"], "edge_padding_low": [1], "edge_padding_high": [0],
       "interior_padding": [1], "result": "pad7", "sharding": "<@mesh, [{}]>"}],
    "outputs": [{"value": "pad7"}, {"value": "bc5", "sharding": "<@mesh, [{b, a}, {}, {}]>"}]})";
  for (uint64_t seed : {122, 5, 6}) {
    CAPTURE(seed);
    Graph graph = loadVerified(json);
    CHECK(checkCompiledEqualsInterpreter(graph, seed) == "");
  }
}
