// Generated code grows with the number of distinct shard shapes, not with
// the devices: the same graph on a 16x16 and a 64x64 mesh, with the same
// piece shapes (full, short and empty pieces), gives the same number of
// branches and kernel calls, and the small one computes what the interpreter
// does.

#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/pipeline/Pipeline.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// Rows summed over an AxA mesh; `size` is not a multiple of the chunks.
std::string rowSumGraph(int axisSize, int size) {
  std::string a = std::to_string(axisSize), n = std::to_string(size);
  return R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": )" +
         a + R"(}, {"name": "y", "size": )" + a + R"(}]}],
    "inputs": [{"name": "a", "type": "tensor<)" +
         n + "x" + n +
         R"(xf32>", "sharding": "<@m, [{x}, {y}]>"},
               {"name": "b", "type": "tensor<)" +
         n + "x" + n +
         R"(xf32>", "sharding": "<@m, [{x}, {y}]>"}],
    "ops": [{"op": "add", "operands": ["a", "b"], "result": "c"},
            {"op": "constant", "result": "zero", "type": "tensor<f32>", "value": 0.0},
            {"op": "reduce", "operands": ["c", "zero"], "result": "r", "dimensions": [1],
             "reducer": "add"}],
    "outputs": [{"value": "c"}, {"value": "r", "sharding": "<@m, [{x}]>"}]})";
}

} // namespace

TEST_CASE("generated code does not grow with the number of devices") {
  // Per dim: chunks of 4 (14 of 16, or 62 of 64), a short one of 2, an empty one.
  Graph small = loadVerified(rowSumGraph(16, 58));
  Graph big = loadVerified(rowSumGraph(64, 250));
  GeneratedProgram smallProgram = generateProgram(pipeline::propagateAndPartition(small));
  GeneratedProgram bigProgram = generateProgram(pipeline::propagateAndPartition(big));
  for (const std::string word : {"if (", "copy<", "rt::allReduce", "binary<", "reduce<"}) {
    INFO(word);
    CHECK(countOccurrences(bigProgram.source, word) == countOccurrences(smallProgram.source, word));
  }
  CHECK(bigProgram.source.find("case ") == std::string::npos);
  CHECK(bigProgram.source.size() < 3 * smallProgram.source.size());
  CHECK(bigProgram.hostSource.size() < 3 * smallProgram.hostSource.size());
  CHECK(checkCompiledEqualsInterpreter(small, 3) == "");
}

namespace {

/// `text` with every run of digits replaced by "#".
std::string withoutNumbers(const std::string &text) {
  return std::regex_replace(text, std::regex("[0-9]+"), "#");
}

} // namespace

TEST_CASE("a 2^20-device mesh gives the 2^10-device mesh's code, up to constants") {
  // Per dim: chunks of 4 (30 of 32, or 1022 of 1024), a short one of 2, an
  // empty one. Not timed: the 1M-device compile is about a second (bench/README.md).
  Graph small = loadVerified(rowSumGraph(32, 122));
  Graph huge = loadVerified(rowSumGraph(1024, 4090));
  GeneratedProgram smallProgram = generateProgram(pipeline::propagateAndPartition(small));
  GeneratedProgram hugeProgram = generateProgram(pipeline::propagateAndPartition(huge));
  CHECK(withoutNumbers(hugeProgram.source) == withoutNumbers(smallProgram.source));
  CHECK(withoutNumbers(hugeProgram.hostSource) == withoutNumbers(smallProgram.hostSource));
  CHECK(withoutNumbers(hugeProgram.header) == withoutNumbers(smallProgram.header));
}
