#include "test/codegen/CodegenTestUtil.h"

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/codegen/ResultCheck.h"
#include "compiler/codegen/ShardedProgram.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/SpmdCoherence.h"
#include "compiler/verify/Verifier.h"
#include "test/support/TestValues.h"

namespace shardgen::testing {

Graph loadVerified(const std::string &json) {
  Graph graph = readGraph(json);
  verifyGraph(graph);
  return graph;
}

SpmdProgram partitionVerified(Graph &graph) {
  SpmdProgram program = propagateAndPartition(graph);
  verifySpmdCoherence(program);
  return program;
}

std::string checkCompiledEqualsInterpreter(Graph &graph, uint64_t seed) {
  try {
    std::vector<Literal> inputs = randomInputs(graph, seed);
    SpmdProgram program = partitionVerified(graph);
    GeneratedProgram generated = generateProgram(program);
    CompiledProgram compiled(program, generated);
    std::vector<Literal> actual = compiled.run(inputs);
    std::vector<Literal> expected = evaluate(graph, inputs);
    if (auto mismatch = compareOutputs(actual, expected))
      return mismatch->describe();
    return "";
  } catch (const GraphError &error) {
    return error.pointer() + ": " + error.what();
  } catch (const std::exception &error) {
    return error.what();
  }
}

} // namespace shardgen::testing
