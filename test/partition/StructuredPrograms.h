#pragma once
// Loop and branch steps (SpmdProgram.h) built around the steps the
// partitioner makes for straight-line graphs: until the graph format has
// while and case, these are how the structured steps are tested (coherence,
// printing, the simulator, generated code).

#include <string>

#include "compiler/partition/Partitioner.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::testing {

/// An 8x4 f32 input: small integers times `scale` (exact under doubling).
inline Literal ramp(int64_t scale) {
  Literal x(TensorType{ElementType::F32, {8, 4}});
  for (int64_t e = 0; e < 32; ++e)
    x.setFloat(e, static_cast<double>((e % 7) - 3) * static_cast<double>(scale));
  return x;
}

inline Literal scalarI32(int64_t value) {
  Literal out(TensorType{ElementType::I32, {}});
  out.setInt(0, value);
  return out;
}

/// One iteration of `while (i < n) { x = x + x; i = i + 1 }` on mesh x=2,
/// y=2, with x (8x4 f32 on [{x}, {}]) resharded to [{}, {y}] and back inside.
inline std::string loopIterationGraph() {
  return R"({"format": "shardgen-graph", "version": 1, "name": "looped",
  "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "x", "type": "tensor<8x4xf32>", "sharding": "<@m, [{x}, {}]>"},
             {"name": "i", "type": "tensor<i32>", "sharding": "<@m, []>"}],
  "ops": [
    {"op": "constant", "result": "n", "value": 3, "type": "tensor<i32>", "sharding": "<@m, []>"},
    {"op": "compare", "operands": ["i", "n"], "result": "more", "comparison_direction": "LT",
     "sharding": "<@m, []>"},
    {"op": "constant", "result": "one", "value": 1, "type": "tensor<i32>", "sharding": "<@m, []>"},
    {"op": "add", "operands": ["i", "one"], "result": "next", "sharding": "<@m, []>"},
    {"op": "add", "operands": ["x", "x"], "result": "twice", "sharding": "<@m, [{}, {y}]>"},
    {"op": "sharding_constraint", "operands": ["twice"], "result": "back",
     "sharding": "<@m, [{x}, {}]>"}],
  "outputs": [{"value": "back", "sharding": "<@m, [{x}, {}]>"},
              {"value": "next", "sharding": "<@m, []>"}]})";
}

/// `inputs` of `step` and of every step in its blocks with `from` replaced
/// by `to`.
inline void replaceInput(std::vector<SpmdStep> &steps, SpmdValueId from, SpmdValueId to) {
  for (SpmdStep &step : steps)
    for (SpmdValueId &v : step.inputs)
      if (v == from)
        v = to;
}

inline SpmdValueId addLike(SpmdProgram &program, SpmdValueId like, const std::string &name) {
  SpmdValue value = program.values[like];
  value.name = name;
  program.values.push_back(value);
  return static_cast<SpmdValueId>(program.values.size()) - 1;
}

/// The steps of loopIterationGraph() as a loop: the condition block holds
/// the steps of `n` and `more`, the body the others; x and i are carried.
/// `graph` (loopIterationGraph(), verified) must outlive the program.
inline SpmdProgram loopProgram(const Graph &graph) {
  SpmdProgram straight = partitionProgram(graph);
  SpmdProgram program = straight;
  const SpmdValueId x = straight.inputs[0], i = straight.inputs[1];
  SpmdStep loop;
  loop.kind = StepKind::Loop;
  loop.pointer = "/loop";
  loop.inputs = {x, i};
  loop.carried = {addLike(program, x, "x.carried"), addLike(program, i, "i.carried")};
  loop.blocks.resize(2);
  for (const SpmdStep &step : straight.steps) {
    const bool condition =
        step.op && (step.op == &graph.main.ops[0] || step.op == &graph.main.ops[1]);
    loop.blocks[condition ? 0 : 1].steps.push_back(step);
  }
  for (SpmdBlock &block : loop.blocks) {
    replaceInput(block.steps, x, loop.carried[0]);
    replaceInput(block.steps, i, loop.carried[1]);
  }
  loop.blocks[0].results = {straight.held[graph.main.ops[1].results[0]]};
  loop.blocks[1].results = {straight.outputs[0], straight.outputs[1]};
  loop.outputs = {addLike(program, x, "x.final"), addLike(program, i, "i.final")};
  program.steps = {loop};
  program.outputs = loop.outputs;
  program.gatheredOutputs = loop.outputs;
  return program;
}

/// `case k { 0: x + x; 1: x * x }` on mesh x=2, y=2 (x 8x4 f32 on [{x}, {}],
/// the product computed on [{}, {y}]): both cases' steps of one graph.
inline std::string branchGraph() {
  return R"({"format": "shardgen-graph", "version": 1, "name": "branched",
  "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "x", "type": "tensor<8x4xf32>", "sharding": "<@m, [{x}, {}]>"},
             {"name": "k", "type": "tensor<i32>", "sharding": "<@m, []>"}],
  "ops": [
    {"op": "add", "operands": ["x", "x"], "result": "sum", "sharding": "<@m, [{x}, {}]>"},
    {"op": "multiply", "operands": ["x", "x"], "result": "product", "sharding": "<@m, [{}, {y}]>"},
    {"op": "sharding_constraint", "operands": ["product"], "result": "square",
     "sharding": "<@m, [{x}, {}]>"}],
  "outputs": [{"value": "sum", "sharding": "<@m, [{x}, {}]>"},
              {"value": "square", "sharding": "<@m, [{x}, {}]>"}]})";
}

/// The steps of branchGraph() as a branch on k: case 0 the sum's, case 1
/// the square's (out-of-range k: case 1).
inline SpmdProgram branchProgram(const Graph &graph) {
  SpmdProgram straight = partitionProgram(graph);
  SpmdProgram program = straight;
  SpmdStep branch;
  branch.kind = StepKind::Branch;
  branch.pointer = "/branch";
  branch.inputs = {straight.inputs[1], straight.inputs[0]};
  branch.blocks.resize(2);
  for (const SpmdStep &step : straight.steps)
    branch.blocks[step.op == &graph.main.ops[0] ? 0 : 1].steps.push_back(step);
  branch.blocks[0].results = {straight.outputs[0]};
  branch.blocks[1].results = {straight.outputs[1]};
  branch.outputs = {addLike(program, straight.outputs[0], "chosen")};
  program.steps = {branch};
  program.outputs = branch.outputs;
  program.gatheredOutputs = branch.outputs;
  return program;
}

} // namespace shardgen::testing
