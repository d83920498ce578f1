// Inputs bound in place (compiler/codegen/InputBinding.h): a device whose
// piece of a global input is contiguous reads it where the caller put it
// (no copy, no arena slot), and so does a dot reading a column block with
// its row stride; other pieces are still copied; results equal the
// reference interpreter either way.

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "compiler/codegen/BufferPlan.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/InputBinding.h"
#include "compiler/codegen/JitRunner.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/LiteralBox.h"
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

/// Device `position`'s piece of `global`, as the per-device call style
/// takes it.
Literal pieceOf(const Literal &global, const ShardLayout &layout, int64_t position) {
  return extractBox(global, layout.offsetsOf(position), layout.extentsOf(position));
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
          (expected[j][p].byteSize() > 0 && // an empty piece's data may be null
           std::memcmp(outShards[p][j].data(), expected[j][p].data(), expected[j][p].byteSize()) !=
               0))
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

TEST_CASE(
    "contiguous input pieces are read in place, column blocks a dot reads with a row stride") {
  Graph graph = loadVerified(kBindingGraph);
  SpmdProgram program = partitionVerified(graph);
  InputBinding binding = planInputBinding(program);
  REQUIRE(program.inputs.size() == 3);
  CHECK(binding.boundInPlace(program.inputs[0]));
  CHECK(binding.boundInPlace(program.inputs[1]));
  CHECK(binding.boundInPlace(program.inputs[2]));
  CHECK_FALSE(binding.boundWithRowStride(program.inputs[0]));
  CHECK(binding.boundWithRowStride(program.inputs[1]));
  CHECK_FALSE(binding.boundWithRowStride(program.inputs[2]));

  GeneratedProgram generated = generateProgram(program);
  // x (at its row offset), w (at its column offset) and c in
  // scatterInputs' kernels, one kernel binding x's and c's whole pieces in
  // bindShards (kernels read their buffer indices from a table, so equal
  // code is one kernel) and w's, which also sets its row pointer.
  CHECK(countOccurrences(generated.source, "] = const_cast<unsigned char *>(") == 5);
  CHECK(generated.source.find(
            "values[bufferIds[0]] = const_cast<unsigned char *>(static_cast<const "
            "unsigned char *>(inputs[bufferIds[1]]) + (o0 * 4) * 4)") != std::string::npos);
  // w's second row: the global row of 6 floats on, or the piece's of 3.
  CHECK(generated.source.find("values[bufferIds[2]] = values[bufferIds[0]] + 24;") !=
        std::string::npos);
  CHECK(generated.source.find("values[bufferIds[2]] = values[bufferIds[0]] + 12;") !=
        std::string::npos);
  CHECK(generated.source.find("stridedCopy<uint32_t, 2, Walk<2>{{4, 3}, {6, 1}") ==
        std::string::npos); // w's columns are not copied
  CHECK(generated.source.find("dotGeneralStrided<F32, 1, 3, 3, 4>") != std::string::npos);
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

TEST_CASE("a piece is a row block when its rows are whole after the split, evenly spaced before") {
  CHECK(isRowBlockPiece({8, 6}, {8, 3}, 1)); // a column block
  CHECK(isRowBlockPiece({8, 6}, {4, 3}, 1)); // a block of a column block
  CHECK(isRowBlockPiece({2, 8, 6}, {2, 8, 3}, 2));
  CHECK(isRowBlockPiece({2, 8, 6}, {1, 4, 3}, 2));
  CHECK(isRowBlockPiece({4, 6, 2}, {4, 3, 2}, 1));       // rows of 3x2, 12 apart
  CHECK(isRowBlockPiece({8, 6}, {0, 3}, 1));             // empty: reads nothing
  CHECK_FALSE(isRowBlockPiece({4, 6, 2}, {4, 3, 1}, 1)); // a row is not contiguous
  CHECK_FALSE(isRowBlockPiece({2, 8, 6}, {2, 4, 3}, 2)); // rows unevenly spaced
}

namespace {

/// A graph on mesh "m" = `axes` (JSON), as graphOn2x2.
std::string graphOn(const std::string &axes, const std::string &name, const std::string &inputs,
                    const std::string &ops, const std::string &outputs) {
  return R"({"format": "shardgen-graph", "version": 1, "name": ")" + name +
         R"(", "meshes": [{"name": "m", "axes": [)" + axes + R"(]}], "inputs": [)" + inputs +
         R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs + "]}";
}

const char *const k2x2 = R"({"name": "x", "size": 2}, {"name": "y", "size": 2})";
const char *const k1x2 = R"({"name": "x", "size": 1}, {"name": "y", "size": 2})";

/// One dot_general y = dot(a, b) (with `dims`, its dimension attributes) on
/// inputs of `element` type; `then` adds ops after it (reading y).
std::string dotGraph(const std::string &axes, const std::string &element, const std::string &a,
                     const std::string &b, const std::string &dims, const std::string &then = "",
                     const std::string &outputs = R"({"value": "y"})") {
  auto input = [&](const std::string &name, const std::string &spec) {
    const size_t bar = spec.find('|'); // "4x6|[{}, {y}]"
    return R"({"name": ")" + name + R"(", "type": "tensor<)" + spec.substr(0, bar) + "x" + element +
           R"(>", "sharding": "<@m, )" + spec.substr(bar + 1) + R"(>"})";
  };
  return graphOn(axes, "strided", input("a", a) + ", " + input("b", b),
                 R"({"op": "dot_general", "operands": ["a", "b"], "result": "y", )" + dims + "}" +
                     then,
                 outputs);
}

/// Whether a line of `source` copies from a global input (scatterInputs).
bool copiesAnInput(const std::string &source) {
  for (size_t at = source.find("stridedCopy<"); at != std::string::npos;
       at = source.find("stridedCopy<", at + 1))
    if (source.substr(at, source.find('\n', at) - at).find("(inputs[") != std::string::npos)
      return true;
  return false;
}

const std::string kMatmul =
    R"("lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0])";

/// Checks that input `operand` of the graph is read in place with a row
/// stride (no copy of any input, the dot takes its stride) and that both
/// call styles compute what the interpreter does.
void checkReadWithRowStride(const std::string &json, size_t operand) {
  Graph graph = loadVerified(json);
  SpmdProgram program = partitionVerified(graph);
  const InputBinding binding = planInputBinding(program);
  REQUIRE(program.inputs.size() > operand);
  CHECK(binding.boundWithRowStride(program.inputs[operand]));
  for (SpmdValueId input : program.inputs)
    CHECK(binding.boundInPlace(input));
  GeneratedProgram generated = generateProgram(program);
  // No input is copied: the column block was copied with stridedCopy.
  CHECK_FALSE(copiesAnInput(generated.source));
  CHECK(generated.source.find("dotGeneralStrided<") != std::string::npos);
  CHECK(checkShardsEqualGlobal(graph, program, generated) == "");
  Graph again = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(again, 11) == "");
}

} // namespace

TEST_CASE("column blocks of a dot's operands are read in place with the row stride") {
  struct Case {
    const char *what, *a, *b, *dims;
    size_t operand; // the one read with a row stride
    const char *then, *outputs;
  };
  const char *const batched = R"("lhs_batching_dimensions": [0], "rhs_batching_dimensions": [0],
                                 "lhs_contracting_dimensions": [2], "rhs_contracting_dimensions": [1])";
  const char *const transposed =
      R"("lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [1])";
  const char *const fused = R"(, {"op": "negate", "operands": ["y"], "result": "t"})";
  const char *const kY = R"({"value": "y"})";
  const Case cases[] = {
      {"rhs columns", "6x8|[{x}, {}]", "8x10|[{}, {y}]", kMatmul.c_str(), 1, "", kY},
      {"rhs columns, uneven (4 and 3)", "5x8|[{}, {}]", "8x7|[{}, {y}]", kMatmul.c_str(), 1, "",
       kY},
      {"lhs columns (the contracting dim: partial sums)", "6x8|[{}, {y}]", "8x4|[{y}, {}]",
       kMatmul.c_str(), 0, "", kY},
      {"lhs blocks (rows and columns split)", "6x10|[{x}, {y}]", "10x4|[{y}, {}]", kMatmul.c_str(),
       0, "", kY},
      {"lhs blocks, one of a single row (no second row to point at)", "3x8|[{x}, {y}]",
       "8x4|[{y}, {}]", kMatmul.c_str(), 0, "", kY},
      {"rhs columns, one piece empty (1, 1, 1, 0 on 2x2)", "4x8|[{}, {}]", "8x3|[{}, {x, y}]",
       kMatmul.c_str(), 1, "", kY},
      {"transposed rhs (q k^T), its contracting dim split", "6x8|[{}, {y}]", "10x8|[{}, {y}]",
       transposed, 1, "", kY},
      {"batched rhs columns", "2x4x8|[{}, {}, {}]", "2x8x6|[{}, {}, {y}]", batched, 1, "", kY},
      {"the product's consumer fused into the dot", "6x8|[{}, {}]", "8x10|[{}, {y}]",
       kMatmul.c_str(), 1, fused, R"({"value": "t"})"},
  };
  for (const char *axes : {k2x2, k1x2})
    for (const char *element : {"f32", "bf16", "f16", "i32"}) // i32: the plain loop
      for (const Case &c : cases) {
        const std::string where = std::string(axes) + " " + element + ": " + c.what;
        CAPTURE(where);
        checkReadWithRowStride(dotGraph(axes, element, c.a, c.b, c.dims, c.then, c.outputs),
                               c.operand);
      }
}

TEST_CASE("column blocks read by anything but a dot in its rows are still copied") {
  const std::string uses[] = {
      // also an elementwise operand
      dotGraph(k2x2, "f32", "6x8|[{}, {}]", "8x10|[{}, {y}]", kMatmul,
               R"(, {"op": "negate", "operands": ["b"], "result": "n"})",
               R"({"value": "y"}, {"value": "n"})"),
      // also an output
      dotGraph(k2x2, "f32", "6x8|[{}, {}]", "8x10|[{}, {y}]", kMatmul, "",
               R"({"value": "y"}, {"value": "b"})"),
      // permuted for the kernel (rhs [free, contracting] kept innermost: not
      // this one), here an lhs contracting over its first dim
      dotGraph(k2x2, "f32", "8x6|[{}, {y}]", "8x10|[{}, {}]",
               R"("lhs_contracting_dimensions": [0], "rhs_contracting_dimensions": [0])"),
  };
  for (const std::string &json : uses) {
    Graph graph = loadVerified(json);
    SpmdProgram program = partitionVerified(graph);
    const InputBinding binding = planInputBinding(program);
    CHECK_FALSE(binding.boundWithRowStride(program.inputs[0]));
    CHECK_FALSE(binding.boundWithRowStride(program.inputs[1]));
    GeneratedProgram generated = generateProgram(program);
    CHECK(copiesAnInput(generated.source));
    CHECK(generated.source.find("dotGeneralStrided<") == std::string::npos);
    CHECK(checkShardsEqualGlobal(graph, program, generated) == "");
    Graph again = loadVerified(json);
    CHECK(checkCompiledEqualsInterpreter(again, 13) == "");
  }
}
