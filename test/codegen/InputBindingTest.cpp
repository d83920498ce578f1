// Inputs bound in place (compiler/codegen/InputBinding.h): a device whose
// piece of a global input is contiguous reads it where the caller put it
// (no copy, no arena slot); other pieces are still copied; results equal
// the reference interpreter either way.

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "compiler/codegen/BufferPlan.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/InputBinding.h"
#include "compiler/codegen/JitRunner.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::codegen;
using namespace shardgen::testing;

namespace {

/// y = dot(x, w) + c: x split by rows (contiguous pieces, unevenly: 3 and 2
/// rows), w by columns (strided pieces), c replicated (the whole tensor).
const std::string kBindingGraph = R"({"format": "shardgen-graph", "version": 1, "name": "bind",
  "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "x", "type": "tensor<5x4xf32>", "sharding": "<@m, [{x}, {}]>"},
             {"name": "w", "type": "tensor<4x6xf32>", "sharding": "<@m, [{}, {y}]>"},
             {"name": "c", "type": "tensor<5x6xf32>", "sharding": "<@m, [{}, {}]>"}],
  "ops": [{"op": "dot_general", "operands": ["x", "w"], "result": "p",
           "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
          {"op": "add", "operands": ["p", "c"], "result": "y"}],
  "outputs": [{"value": "y", "sharding": "<@m, [{x}, {y}]>"}]})";

/// Device `position`'s piece of a row-major 2-d f32 `global`, as the
/// per-device call style takes it.
Literal pieceOf(const Literal &global, const ShardLayout &layout, int64_t position) {
  Literal piece(localBufferType(layout, position));
  const std::vector<int64_t> offset = layout.offsetsOf(position);
  const std::vector<int64_t> extent = layout.extentsOf(position);
  const int64_t columns = layout.globalType.shape[1];
  for (int64_t r = 0; r < extent[0]; ++r)
    std::memcpy(piece.as<float>() + r * extent[1],
                global.as<float>() + (offset[0] + r) * columns + offset[1],
                static_cast<size_t>(extent[1]) * sizeof(float));
  return piece;
}

/// "" when the per-device style (runShards, every device on a thread) gives,
/// bit for bit, the output pieces of the global-tensor style; else the first
/// difference.
std::string checkShardsEqualGlobal(const Graph &graph, const SpmdProgram &program,
                                   const GeneratedProgram &generated) {
  CompiledProgram compiled(program, generated);
  const std::vector<Literal> inputs = randomInputs(graph, 5);
  std::vector<std::vector<Literal>> expected; // [output][position]
  compiled.run(inputs, {}, expected);
  const int64_t devices = program.mesh.numDevices();
  std::vector<std::vector<Literal>> inShards(devices), outShards(devices);
  std::vector<std::vector<const void *>> in(devices);
  std::vector<std::vector<void *>> out(devices);
  for (int64_t p = 0; p < devices; ++p) {
    for (size_t i = 0; i < inputs.size(); ++i)
      inShards[p].push_back(pieceOf(inputs[i], program.layout(program.inputs[i]), p));
    for (SpmdValueId id : program.outputs)
      outShards[p].emplace_back(localBufferType(program.layout(id), p));
    for (const Literal &shard : inShards[p])
      in[p].push_back(shard.data());
    for (Literal &shard : outShards[p])
      out[p].push_back(shard.data());
  }
  compiled.runShards(in, out,
                     [](const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
                       runtime::launch(mesh, function);
                     });
  for (int64_t p = 0; p < devices; ++p)
    for (size_t j = 0; j < program.outputs.size(); ++j)
      if (outShards[p][j].byteSize() != expected[j][p].byteSize() ||
          std::memcmp(outShards[p][j].data(), expected[j][p].data(), expected[j][p].byteSize()) !=
              0)
        return "output " + std::to_string(j) + " differs at position " + std::to_string(p);
  return "";
}

/// The text of the generated function `name` (to the next function).
std::string functionText(const std::string &source, const std::string &name) {
  const size_t begin = source.find("void " + name + "(");
  if (begin == std::string::npos)
    return "";
  return source.substr(begin, source.find("\n}\n", begin) - begin);
}

} // namespace

TEST_CASE("a piece is contiguous when every dim after its first longer one is whole") {
  CHECK(isContiguousPiece({8, 4}, {3, 4}));
  CHECK(isContiguousPiece({8, 4}, {8, 4}));
  CHECK(isContiguousPiece({8, 4, 2}, {1, 3, 2}));
  CHECK(isContiguousPiece({8, 4}, {1, 1}));
  CHECK(isContiguousPiece({8, 4}, {0, 4}));
  CHECK_FALSE(isContiguousPiece({8, 4}, {8, 2}));
  CHECK_FALSE(isContiguousPiece({8, 4, 2}, {2, 4, 1}));
}

TEST_CASE("contiguous input pieces are read in place, strided ones copied") {
  Graph graph = loadVerified(kBindingGraph);
  SpmdProgram program = partitionVerified(graph);
  InputBinding binding = planInputBinding(program);
  REQUIRE(program.inputs.size() == 3);
  CHECK(binding.boundInPlace(program.inputs[0]));
  CHECK_FALSE(binding.boundInPlace(program.inputs[1]));
  CHECK(binding.boundInPlace(program.inputs[2]));

  GeneratedProgram generated = generateProgram(program);
  // x (at its row offset) and c in scatterInputs' kernels, and one kernel
  // binding both whole pieces in bindShards (kernels read their buffer
  // indices from a table, so equal code is one kernel).
  CHECK(countOccurrences(generated.source, "] = const_cast<unsigned char *>(") == 3);
  CHECK(generated.source.find(
            "values[bufferIds[0]] = const_cast<unsigned char *>(static_cast<const "
            "unsigned char *>(inputs[bufferIds[1]]) + (o0 * 4) * 4)") != std::string::npos);
  CHECK(generated.source.find("stridedCopy<uint32_t, 2, Walk<2>{{4, 3}, {6, 1}") !=
        std::string::npos); // w's columns
  Graph again = loadVerified(kBindingGraph);
  CHECK(checkCompiledEqualsInterpreter(again, 3) == "");
}

TEST_CASE("inputs read in place take no arena slot") {
  Graph graph = loadVerified(kBindingGraph);
  SpmdProgram program = partitionVerified(graph);
  const FusionPlan fusion = planFusion(program);
  const BufferPlan copied = planBuffers(program, fusion);
  const BufferPlan bound = planBuffers(program, fusion, planInputBinding(program));
  // c's 5x6 floats (a 128-byte slot) live until the last step, beside p
  // and y: copied, no other value can take its slot.
  CHECK(copied.arenaBytes - bound.arenaBytes >= 128);
  CHECK(bound.arenaBytes < copied.arenaBytes);
}

TEST_CASE("the per-device style reads every input and writes every output in place") {
  Graph graph = loadVerified(kBindingGraph);
  SpmdProgram program = partitionVerified(graph);
  GeneratedProgram generated = generateProgram(program);
  // bindShards points at all three input pieces, w's strided columns too,
  // and points y at the caller's piece: nothing is copied either way.
  CHECK(generated.source.find("__builtin_memcpy(values") == std::string::npos);
  CHECK(countOccurrences(generated.source, "] = static_cast<unsigned char *>(outputs[") == 1);
  CHECK(functionText(generated.source, "bindShards").find("outputs") != std::string::npos);
  CHECK(checkShardsEqualGlobal(graph, program, generated) == "");
}

TEST_CASE("outputs the steps cannot write in place are still copied out") {
  // y twice (the second binding wins; the first is copied from it) and an
  // input as an output (read in place, then copied out).
  const std::string json = graphOn2x2(
      "twice", R"({"name": "x", "type": "tensor<4x6xf32>", "sharding": "<@m, [{x}, {y}]>"})",
      R"({"op": "tanh", "operands": ["x"], "result": "y"})",
      R"({"value": "y", "sharding": "<@m, [{x}, {y}]>"},
         {"value": "y", "sharding": "<@m, [{x}, {y}]>"},
         {"value": "x", "sharding": "<@m, [{x}, {y}]>"})");
  Graph graph = loadVerified(json);
  SpmdProgram program = partitionVerified(graph);
  GeneratedProgram generated = generateProgram(program);
  CHECK(countOccurrences(generated.source, "] = static_cast<unsigned char *>(outputs[") >= 1);
  CHECK(checkShardsEqualGlobal(graph, program, generated) == "");
}

TEST_CASE("an output in an input's buffer (an update in place) is still copied after the steps") {
  // y = dot(x, w) into x's own buffer: written during the steps, it would
  // overwrite x while the product still reads it.
  const std::string json = graphOn2x2(
      "update", R"({"name": "x", "type": "tensor<4x4xf32>", "sharding": "<@m, [{x}, {}]>"},
                   {"name": "w", "type": "tensor<4x4xf32>", "sharding": "<@m, [{}, {}]>"})",
      R"({"op": "dot_general", "operands": ["x", "w"], "result": "y",
          "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]})",
      R"({"value": "y", "sharding": "<@m, [{x}, {}]>"})");
  Graph graph = loadVerified(json);
  SpmdProgram program = partitionVerified(graph);
  GeneratedProgram generated = generateProgram(program);
  CompiledProgram compiled(program, generated);
  const std::vector<Literal> inputs = randomInputs(graph, 7);
  std::vector<std::vector<Literal>> expected; // [output][position]
  compiled.run(inputs, {}, expected);
  const int64_t devices = program.mesh.numDevices();
  std::vector<std::vector<Literal>> inShards(devices);
  std::vector<std::vector<const void *>> in(devices);
  std::vector<std::vector<void *>> out(devices);
  for (int64_t p = 0; p < devices; ++p) {
    for (size_t i = 0; i < inputs.size(); ++i)
      inShards[p].push_back(pieceOf(inputs[i], program.layout(program.inputs[i]), p));
    for (const Literal &shard : inShards[p])
      in[p].push_back(shard.data());
    out[p].push_back(inShards[p][0].data()); // y's piece over x's
  }
  compiled.runShards(in, out,
                     [](const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
                       runtime::launch(mesh, function);
                     });
  for (int64_t p = 0; p < devices; ++p) {
    CAPTURE(p);
    REQUIRE(inShards[p][0].byteSize() == expected[0][p].byteSize());
    CHECK(std::memcmp(inShards[p][0].data(), expected[0][p].data(), expected[0][p].byteSize()) ==
          0);
  }
}

TEST_CASE("one output buffer shared by every device is copied into, not computed in") {
  // A replicated product: with every device computing it straight into the
  // one buffer, their zeroing and accumulation would interleave.
  const std::string json = graphOn2x2(
      "shared", R"({"name": "x", "type": "tensor<64x1024xf32>", "sharding": "<@m, [{}, {}]>"},
                   {"name": "w", "type": "tensor<1024x64xf32>", "sharding": "<@m, [{}, {}]>"})",
      R"({"op": "dot_general", "operands": ["x", "w"], "result": "y",
          "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]})",
      R"({"value": "y", "sharding": "<@m, [{}, {}]>"})");
  Graph graph = loadVerified(json);
  SpmdProgram program = partitionVerified(graph);
  CompiledProgram compiled(program, generateProgram(program));
  const std::vector<Literal> inputs = randomInputs(graph, 9);
  std::vector<std::vector<Literal>> expected; // [output][position]
  compiled.run(inputs, {}, expected);
  const int64_t devices = program.mesh.numDevices();
  Literal shared(localBufferType(program.layout(program.outputs[0]), 0));
  std::vector<std::vector<const void *>> in(devices);
  std::vector<std::vector<void *>> out(devices, std::vector<void *>{shared.data()});
  for (int64_t p = 0; p < devices; ++p)
    for (const Literal &input : inputs)
      in[p].push_back(input.data()); // replicated: the whole tensor is the piece
  for (int repeat = 0; repeat < 3; ++repeat) {
    compiled.runShards(
        in, out, [](const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
          runtime::launch(mesh, function);
        });
    CHECK(std::memcmp(shared.data(), expected[0][0].data(), expected[0][0].byteSize()) == 0);
  }
}

TEST_CASE("an input unreduced over some axes: one device of each group holds it, the others 0") {
  // Every device read the whole value before, so the all_reduce the result
  // needs summed it once per member: twice the value on a group of 2.
  for (const char *sharding : {R"([{}, {}], unreduced={\"y\"})", R"([{x}, {}], unreduced={\"y\"})",
                               R"([{}, {}], unreduced={\"x\", \"y\"})"}) {
    CAPTURE(sharding);
    const std::string json = graphOn2x2(
        "unreduced",
        std::string(R"({"name": "a", "type": "tensor<4x6xf32>", "sharding": "<@m, )") + sharding +
            ">\"}",
        R"({"op": "negate", "operands": ["a"], "result": "b", "sharding": "<@m, [{}, {y}]>"})",
        R"({"value": "b"})");
    Graph graph = loadVerified(json);
    SpmdProgram program = partitionVerified(graph);
    CHECK_FALSE(planInputBinding(program).boundInPlace(program.inputs[0]));
    CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
  }
}
