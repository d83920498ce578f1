#include "test/codegen/CodegenTestUtil.h"

#include <algorithm>
#include <cmath>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/SpmdCoherence.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/verify/Verifier.h"
#include "test/support/TestValues.h"
#include "test/support/TextFile.h"

namespace shardgen::testing {

double ulpsFrom(double got, double exact) {
  int e = 0;
  std::frexp(exact, &e);
  return std::fabs(got - exact) / std::ldexp(1.0, std::max(e - 1, -126) - 23);
}

Graph loadVerified(const std::string &json) {
  Graph graph = readGraph(json);
  verifyGraph(graph);
  return graph;
}

std::string sample(const std::string &name) {
  return readFile(std::string(SHARDGEN_SOURCE_DIR) + "/samples/" + name + ".json");
}

SpmdProgram partitionVerified(Graph &graph) {
  SpmdProgram program = pipeline::propagateAndPartition(graph);
  verifySpmdCoherence(program);
  return program;
}

std::string generatedSource(const std::string &json) {
  Graph graph = loadVerified(json);
  return generateProgram(partitionVerified(graph)).source;
}

std::vector<Literal> runCompiled(Graph &graph, const std::vector<Literal> &inputs,
                                 std::string *source) {
  SpmdProgram program = pipeline::propagateAndPartition(graph);
  GeneratedProgram generated = generateProgram(program);
  if (source)
    *source = generated.source;
  CompiledProgram compiled(program, generated);
  return compiled.run(inputs);
}

std::string checkCompiledEqualsInterpreter(Graph &graph, uint64_t seed) {
  return checkCompiledEqualsInterpreter(graph, seed, AotOptions{}, generatedCodeJitOptions());
}

std::string checkCompiledEqualsInterpreter(Graph &graph, uint64_t seed, const AotOptions &options,
                                           const JitOptions &jitOptions) {
  try {
    std::vector<Literal> inputs = randomInputs(graph, seed);
    SpmdProgram program = partitionVerified(graph);
    GeneratedProgram generated = generateProgram(program, options);
    CompiledProgram compiled(program, generated, jitOptions);
    std::vector<Literal> actual = compiled.run(inputs);
    BoundedEvaluation expected = evaluateWithBounds(graph, inputs);
    if (auto mismatch = compareOutputs(actual, expected, {}, outputNames(graph)))
      return mismatch->describe();
    return "";
  } catch (const GraphError &error) {
    return error.pointer() + ": " + error.what();
  } catch (const std::exception &error) {
    return error.what();
  }
}

std::string graphOn2x2(const std::string &name, const std::string &inputs, const std::string &ops,
                       const std::string &outputs) {
  return R"({"format": "shardgen-graph", "version": 1, "name": ")" + name + R"(", "meshes": [
    {"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [)" +
         inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs + "]}";
}

size_t countOccurrences(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

} // namespace shardgen::testing
