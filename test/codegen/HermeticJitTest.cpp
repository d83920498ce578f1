// The JIT of generated programs is hermetic: it compiles only the embedded
// headers (never a file of the working directory) and links only its
// explicit symbol table, which holds the custom-call functions the user
// registered. Their names cannot clash with the generated code's.

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/verify/CustomCallNames.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::testing;
namespace fs = std::filesystem;

namespace {

/// Runs `body` with the working directory set to a fresh folder holding
/// `#error planted` copies of every header generated code includes.
template <typename Body> void inPlantedDirectory(Body body) {
  fs::path dir = fs::temp_directory_path() / ("shardgen-planted-" + std::to_string(getpid()));
  fs::remove_all(dir);
  for (const char *header : {"kernels/kernels.h", "kernels/elements.h", "shardgen/runtime.h",
                             "shardgen/custom_call.h", "stddef.h", "stdint.h", "mlp.cpp"}) {
    fs::create_directories((dir / header).parent_path());
    std::ofstream(dir / header) << "#error planted\n";
  }
  fs::path previous = fs::current_path();
  fs::current_path(dir);
  body();
  fs::current_path(previous);
  fs::remove_all(dir);
}

/// result = operand * factor, whatever the names it is called by.
template <int Factor>
void scale(shardgen_buffer *results, int64_t, const shardgen_buffer *operands, int64_t) {
  int64_t count = 1;
  for (int64_t d = 0; d < operands[0].rank; ++d)
    count *= operands[0].shape[d];
  for (int64_t i = 0; i < count; ++i)
    static_cast<float *>(results[0].data)[i] =
        static_cast<const float *>(operands[0].data)[i] * Factor;
}

} // namespace

TEST_CASE("a generated program ignores headers planted in the working directory") {
  Graph graph = loadVerified(sample("mlp"));
  inPlantedDirectory([&] { CHECK(checkCompiledEqualsInterpreter(graph, 3) == ""); });
}

TEST_CASE("custom_call targets named like generated, kernel and runtime names run correctly") {
  // copy (a kernel), values and runSteps (the generated program's), allReduce
  // (the runtime's), Scratch (a kernel type): declared in a namespace of their
  // own and called qualified, they capture nothing and are captured by nothing.
  Graph graph = loadVerified(R"({"format": "shardgen-graph", "version": 1, "name": "names",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4x6xf32>", "sharding": "<@m, [{x}, {y}]>"}],
    "ops": [
      {"op": "custom_call", "operands": ["a"], "result": "b", "type": "tensor<4x6xf32>",
       "call_target_name": "copy", "sharding_rule": "([i, j])->([i, j]) {i=4, j=6}"},
      {"op": "custom_call", "operands": ["b"], "result": "c", "type": "tensor<4x6xf32>",
       "call_target_name": "values", "sharding_rule": "([i, j])->([i, j]) {i=4, j=6}"},
      {"op": "custom_call", "operands": ["c"], "result": "d", "type": "tensor<4x6xf32>",
       "call_target_name": "runSteps"},
      {"op": "custom_call", "operands": ["d"], "result": "e", "type": "tensor<4x6xf32>",
       "call_target_name": "allReduce", "sharding_rule": "([i, j])->([i, j]) {i=4, j=6}"},
      {"op": "custom_call", "operands": ["e"], "result": "f", "type": "tensor<4x6xf32>",
       "call_target_name": "Scratch", "sharding_rule": "([i, j])->([i, j]) {i=4, j=6}"}],
    "outputs": [{"value": "f", "sharding": "<@m, [{x}, {y}]>"}]})");
  CustomCallFunctions functions = {{"copy", scale<2>},
                                   {"values", scale<3>},
                                   {"runSteps", scale<5>},
                                   {"allReduce", scale<7>},
                                   {"Scratch", scale<11>}};
  std::vector<Literal> inputs = randomInputs(graph, 1);
  SpmdProgram program = pipeline::propagateAndPartition(graph);
  GeneratedProgram generated = generateProgram(program);
  CompiledProgram compiled(program, generated, generatedCodeJitOptions(functions));
  std::vector<Literal> actual = compiled.run(inputs);
  EvalOptions options;
  options.customCallResolver = [&](const std::string &target) { return functions.at(target); };
  BoundedEvaluation expected = evaluateWithBounds(graph, inputs, options);
  auto mismatch = compareOutputs(actual, expected);
  CHECK_MESSAGE(!mismatch, (mismatch ? mismatch->describe() : ""));
  // And the values are really the product of the five calls.
  const float *in = reinterpret_cast<const float *>(inputs[0].data());
  const float *out = reinterpret_cast<const float *>(actual[0].data());
  for (int i = 0; i < 24; ++i)
    CHECK(out[i] == in[i] * 2 * 3 * 5 * 7 * 11);
}

TEST_CASE("a custom-call function cannot replace a symbol of the JIT's table") {
  CHECK_THROWS_AS(generatedCodeJitOptions({{"memcpy", scale<2>}}), JitError);
}

TEST_CASE("the verifier rejects every C name of the JIT's base host symbols") {
  for (const auto &[name, address] : baseHostSymbols()) {
    INFO(name);
    CHECK(verify::customCallTargetProblem(name).has_value());
  }
  CHECK(!verify::customCallTargetProblem("rms_norm").has_value());
}
