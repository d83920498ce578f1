// broadcast_in_dim fused into its elementwise consumer (Fusion.h,
// BroadcastFusion.cpp): the loop reads the operand through an index map
// (a bias along the last dims at the inner index, a per-row value at the
// outer index, a scalar at 0), nothing is materialized, and the program
// still equals the reference interpreter, on uneven pieces too.

#include <doctest/doctest.h>

#include <string>

#include "compiler/codegen/CodeGenerator.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string broadcastGraph(const std::string &inputs, const std::string &ops,
                           const std::string &outputs) {
  return graphOn2x2("bcast", inputs, ops, outputs);
}

/// tanh(a + bias) * rowscale * s on a [5, 3, 4] tensor split unevenly
/// (3 and 2) over x: bias [3, 4] covers the inner dims, rowscale [5] the
/// outer one, s is a scalar.
const std::string kBias = broadcastGraph(
    R"({"name": "a", "type": "tensor<5x3x4xf32>", "sharding": "<@m, [{x}, {}, {}]>"},
       {"name": "bias", "type": "tensor<3x4xf32>", "sharding": "<@m, [{}, {}]>"},
       {"name": "s", "type": "tensor<f32>", "sharding": "<@m, []>"})",
    R"({"op": "broadcast_in_dim", "operands": ["bias"], "result": "bb", "type": "tensor<5x3x4xf32>",
        "broadcast_dimensions": [1, 2]},
       {"op": "add", "operands": ["a", "bb"], "result": "ab"},
       {"op": "tanh", "operands": ["ab"], "result": "t"},
       {"op": "broadcast_in_dim", "operands": ["s"], "result": "sb", "type": "tensor<5x3x4xf32>",
        "broadcast_dimensions": []},
       {"op": "multiply", "operands": ["t", "sb"], "result": "y"})",
    R"({"value": "y", "sharding": "<@m, [{x}, {}, {}]>"})");

/// a - rowmax: the per-row value [5, 3] broadcast over the last dim.
const std::string kRows = broadcastGraph(
    R"({"name": "a", "type": "tensor<5x3x4xf32>", "sharding": "<@m, [{x}, {}, {}]>"},
       {"name": "m", "type": "tensor<5x3xf32>", "sharding": "<@m, [{x}, {}]>"})",
    R"({"op": "broadcast_in_dim", "operands": ["m"], "result": "mb", "type": "tensor<5x3x4xf32>",
        "broadcast_dimensions": [0, 1]},
       {"op": "subtract", "operands": ["a", "mb"], "result": "y"})",
    R"({"value": "y", "sharding": "<@m, [{x}, {}, {}]>"})");

/// bias [3] on the middle dim: neither a prefix nor a suffix, materialized.
const std::string kMiddle = broadcastGraph(
    R"({"name": "a", "type": "tensor<5x3x4xf32>", "sharding": "<@m, [{x}, {}, {}]>"},
       {"name": "bias", "type": "tensor<3xf32>", "sharding": "<@m, [{}]>"})",
    R"({"op": "broadcast_in_dim", "operands": ["bias"], "result": "bb", "type": "tensor<5x3x4xf32>",
        "broadcast_dimensions": [1]},
       {"op": "add", "operands": ["a", "bb"], "result": "y"})",
    R"({"value": "y", "sharding": "<@m, [{x}, {}, {}]>"})");

} // namespace

TEST_CASE("a bias and a scalar broadcast are read in the fused loop, never stored") {
  const std::string source = generatedSource(kBias);
  CHECK(source.find("stridedCopy") == std::string::npos); // no materialized broadcast
  CHECK(source.find("/ops/0, /ops/1, /ops/2, /ops/3, /ops/4 (fused)") != std::string::npos);
  // 3-row and 2-row pieces: an outer loop over rows, the inner over 3x4.
  CHECK(source.find("fusedElementwise2D<float, 3, 12>") != std::string::npos);
  CHECK(source.find("fusedElementwise2D<float, 2, 12>") != std::string::npos);
  CHECK(source.find(", c)))") != std::string::npos); // the bias at the inner index
  CHECK(source.find(", 0)))") != std::string::npos); // the scalar
  Graph graph = loadVerified(kBias);
  CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
}

TEST_CASE("a per-row broadcast is read at the outer index") {
  const std::string source = generatedSource(kRows);
  CHECK(source.find("stridedCopy") == std::string::npos);
  CHECK(source.find("fusedElementwise2D<float, 9, 4>") != std::string::npos);
  CHECK(source.find(", r)))") != std::string::npos);
  Graph graph = loadVerified(kRows);
  CHECK(checkCompiledEqualsInterpreter(graph, 6) == "");
}

TEST_CASE("a broadcast over inner and outer dims is still materialized") {
  const std::string source = generatedSource(kMiddle);
  CHECK(source.find("stridedCopy") != std::string::npos);
  CHECK(source.find("fusedElementwise") == std::string::npos);
  Graph graph = loadVerified(kMiddle);
  CHECK(checkCompiledEqualsInterpreter(graph, 7) == "");
}
