// JIT time that grows with distinct kernels, not ops: equal steps share one
// kernel, long fused chains are cut into bounded groups, long functions
// into parts, and a large program into translation units that compile in
// parallel and cache one by one, all giving the interpreter's results.

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/Fusion.h"
#include "compiler/codegen/JitRunner.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// `layers` layers h = tanh(h . w_i + b_i), each with its own weights, the
/// batch on x of a 2x2 mesh.
std::string layerStack(int layers) {
  std::string inputs =
      R"({"name": "h", "type": "tensor<8x16xf32>", "sharding": "<@m, [{x}, {}]>"})";
  std::string ops;
  std::string h = "h";
  for (int i = 0; i < layers; ++i) {
    std::string n = std::to_string(i);
    inputs += R"(, {"name": "w)" + n + R"(", "type": "tensor<16x16xf32>"})";
    inputs += R"(, {"name": "b)" + n + R"(", "type": "tensor<8x16xf32>"})";
    ops += std::string(i ? ", " : "") + R"({"op": "dot_general", "operands": [")" + h + R"(", "w)" +
           n + R"("], "result": "m)" + n +
           R"(", "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]})";
    ops += R"(, {"op": "add", "operands": ["m)" + n + R"(", "b)" + n + R"("], "result": "a)" + n +
           R"("})";
    ops += R"(, {"op": "tanh", "operands": ["a)" + n + R"("], "result": "t)" + n + R"("})";
    h = "t" + n;
  }
  return R"({"format": "shardgen-graph", "version": 1, "name": "stack", "meshes": [
    {"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [)" +
         inputs + R"(], "ops": [)" + ops + R"(], "outputs": [{"value": ")" + h + R"("}]})";
}

/// `length` elementwise ops in a chain: add y, tanh, add y, tanh, ...
std::string elementwiseChain(int length) {
  std::string ops;
  std::string h = "x";
  for (int i = 0; i < length; ++i) {
    std::string kind = i % 2 ? "tanh" : "add";
    std::string operands = kind == "tanh" ? "\"" + h + "\"" : "\"" + h + "\", \"y\"";
    ops += std::string(i ? ", " : "") + R"({"op": ")" + kind + R"(", "operands": [)" + operands +
           R"(], "result": "v)" + std::to_string(i) + R"("})";
    h = "v" + std::to_string(i);
  }
  return R"({"format": "shardgen-graph", "version": 1, "name": "chain", "meshes": [
    {"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<4x8xf32>", "sharding": "<@m, [{x}, {}]>"},
               {"name": "y", "type": "tensor<4x8xf32>"}],
    "ops": [)" +
         ops + R"(], "outputs": [{"value": ")" + h + R"("}]})";
}

GeneratedProgram generate(const std::string &json, const AotOptions &options = {}) {
  Graph graph = loadVerified(json);
  return generateProgram(partitionVerified(graph), options);
}

/// The most statements (rows of kernel calls) any part function of `source` holds.
size_t longestPart(const std::string &source) {
  size_t longest = 0;
  for (size_t at = source.find("void runSteps_"); at != std::string::npos;
       at = source.find("void runSteps_", at + 1)) {
    size_t end = source.find("\n}\n", at);
    longest = std::max(longest, countOccurrences(source.substr(at, end - at), "{kernel"));
  }
  return longest;
}

} // namespace

TEST_CASE("equal layers share one kernel per distinct step") {
  GeneratedProgram few = generate(layerStack(3)), many = generate(layerStack(40));
  CHECK(countOccurrences(many.source, "dotGeneral") == 1); // bias and tanh in its epilogue
  // Kernels (steps, scatter, gather, copies) do not grow with the layers.
  CHECK(countOccurrences(many.source, "\nvoid kernel") ==
        countOccurrences(few.source, "\nvoid kernel"));
  CHECK(countOccurrences(many.source, "{kernel0, ") == 40); // one call per layer
  Graph graph = loadVerified(layerStack(40));
  CHECK(checkCompiledEqualsInterpreter(graph, 3) == "");
}

TEST_CASE("a long elementwise chain is cut into fused groups of bounded size") {
  Graph graph = loadVerified(elementwiseChain(100));
  SpmdProgram program = partitionVerified(graph);
  codegen::FusionPlan plan = codegen::planFusion(program);
  size_t fused = 0;
  for (const codegen::FusedGroup &group : plan.groups) {
    CHECK(group.steps.size() <= codegen::kMaxFusedGroupSteps);
    fused += group.steps.size();
  }
  CHECK(plan.groups.size() == 4); // 32 + 32 + 32 + 4
  CHECK(fused == 100);
  // The three full groups are equal and share a kernel; the short one has its own.
  GeneratedProgram generated = generateProgram(program);
  CHECK(countOccurrences(generated.source, "fusedElementwise<") == 2);
  CHECK(countOccurrences(generated.source, "const auto t31 ") == 0);
  Graph again = loadVerified(elementwiseChain(100));
  CHECK(checkCompiledEqualsInterpreter(again, 5) == "");
}

TEST_CASE("long functions are cut into parts of bounded size") {
  AotOptions options;
  options.split.statementsPerPart = 7;
  GeneratedProgram generated = generate(layerStack(30), options);
  CHECK(generated.deviceParts.empty());                             // small: one file
  CHECK(countOccurrences(generated.source, "void runSteps_") == 5); // 30 steps / 7
  CHECK(longestPart(generated.source) == 7);
  CHECK(countOccurrences(generated.source, "void scatterInputs_") == 9); // 61 inputs / 7
}

TEST_CASE("a program split into translation units equals the interpreter and caches each") {
  AotOptions options;
  options.split = {5, 1, 3}; // parts of 5 statements over 3 more files
  GeneratedProgram generated = generate(layerStack(12), options);
  REQUIRE(generated.deviceParts.size() == 3);
  CHECK(generated.source.find("shardgen_stack_parts::runSteps_0(device, values);") !=
        std::string::npos);
  for (const std::string &part : generated.deviceParts)
    CHECK(part.find("namespace shardgen_stack_parts {") != std::string::npos);

  namespace fs = std::filesystem;
  const fs::path cache =
      fs::temp_directory_path() / ("shardgen-split-units-test-" + std::to_string(::getpid()));
  fs::create_directories(cache);
  JitOptions jit = generatedCodeJitOptions();
  jit.cacheDir = cache.string();
  Graph graph = loadVerified(layerStack(12));
  CHECK(checkCompiledEqualsInterpreter(graph, 9, options, jit) == "");
  size_t entries = 0;
  for ([[maybe_unused]] const auto &entry : fs::directory_iterator(cache))
    ++entries;
  CHECK(entries == 4); // one object per file

  // A second compile of the unchanged program loads every file from the cache.
  Graph again = loadVerified(layerStack(12));
  SpmdProgram program = partitionVerified(again);
  CompiledProgram second(program, generateProgram(program, options), jit);
  CHECK(second.module().timings().fromCache);
  std::vector<Literal> outputs = second.run(randomInputs(again, 9));
  CHECK(outputs.size() == 1);
  fs::remove_all(cache);
}
