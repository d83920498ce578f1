// The driver: checks the inputs, then runs regions op by op. Every value is
// held once per device of the region's grid (one device outside manual
// computations), and each value is released after its last use.

#include "compiler/interp/Interpreter.h"

#include <unordered_map>

#include "compiler/interp/Collectives.h"
#include "compiler/interp/DeviceGrid.h"
#include "compiler/interp/LocalOps.h"
#include "compiler/interp/ManualComputation.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen {
namespace interp {
namespace {

class RegionEvaluator {
public:
  RegionEvaluator(const Graph &graph, const EvalOptions &options)
      : graph_(graph), options_(options) {}

  std::vector<PerDevice> run(const Region &region, const DeviceGrid &grid,
                             std::vector<PerDevice> arguments) {
    std::unordered_map<ValueId, PerDevice> values;
    std::unordered_map<ValueId, int64_t> remainingUses;
    for (const Op &op : region.ops)
      for (ValueId operand : op.operands)
        ++remainingUses[operand];
    for (const RegionResult &result : region.results)
      ++remainingUses[result.value];

    for (size_t i = 0; i < region.args.size(); ++i)
      values[region.args[i].value] = std::move(arguments[i]);
    for (const Op &op : region.ops) {
      std::vector<const PerDevice *> operands;
      for (ValueId operand : op.operands)
        operands.push_back(&values.at(operand));
      std::vector<PerDevice> results = evalOp(op, grid, operands);
      for (ValueId operand : op.operands)
        if (--remainingUses[operand] == 0)
          values.erase(operand);
      for (size_t r = 0; r < op.results.size(); ++r)
        values[op.results[r]] = std::move(results[r]);
    }

    std::vector<PerDevice> results;
    for (const RegionResult &result : region.results)
      results.push_back(values.at(result.value));
    return results;
  }

private:
  std::vector<PerDevice> evalOp(const Op &op, const DeviceGrid &grid,
                                const std::vector<const PerDevice *> &operands) {
    try {
      if (op.kind == OpKind::ManualComputation)
        return evalManualComputation(
            graph_, op, grid, operands,
            [this](const Region &body, const DeviceGrid &inner, std::vector<PerDevice> arguments) {
              return run(body, inner, std::move(arguments));
            });
      if (isCollective(op.kind))
        return {evalCollective(op, grid, operands)};
      return evalOnEachDevice(op, grid, operands);
    } catch (const GraphError &error) {
      // Kernels do not know where they run; name the op for them.
      if (error.pointer().empty())
        throw GraphError(op.pointer, error.what());
      throw;
    }
  }

  std::vector<PerDevice> evalOnEachDevice(const Op &op, const DeviceGrid &grid,
                                          const std::vector<const PerDevice *> &operands) {
    shardgen_custom_call_fn customCall = nullptr;
    if (op.kind == OpKind::CustomCall)
      customCall = resolveCustomCall(op);
    std::vector<PerDevice> results(op.results.size(), PerDevice(grid.size()));
    for (int64_t device = 0; device < grid.size(); ++device) {
      std::vector<const Literal *> local;
      for (const PerDevice *operand : operands)
        local.push_back(&(*operand)[device]);
      std::vector<Literal> deviceResults = evalLocalOp(graph_, op, local, customCall);
      for (size_t r = 0; r < deviceResults.size(); ++r)
        results[r][device] = std::move(deviceResults[r]);
    }
    return results;
  }

  shardgen_custom_call_fn resolveCustomCall(const Op &op) {
    const std::string &target = op.attr<CustomCallAttrs>().callTargetName;
    shardgen_custom_call_fn function =
        options_.customCallResolver ? options_.customCallResolver(target) : nullptr;
    if (!function)
      fail(op.pointer, "custom_call target \"" + target +
                           "\" is not available: no function of that name was registered");
    return function;
  }

  const Graph &graph_;
  const EvalOptions &options_;
};

} // namespace
} // namespace interp

std::vector<Literal> evaluate(const Graph &graph, const std::vector<Literal> &inputs,
                              const EvalOptions &options) {
  const std::vector<RegionArgument> &args = graph.main.args;
  if (inputs.size() != args.size())
    fail("/inputs", "the graph has " + std::to_string(args.size()) + " inputs but " +
                        std::to_string(inputs.size()) + " values were given");
  std::vector<interp::PerDevice> arguments;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value &value = graph.value(args[i].value);
    if (!value.type || *value.type != inputs[i].type())
      fail(args[i].pointer.empty() ? joinPointer("/inputs", i) : args[i].pointer,
           "input \"" + value.name + "\" has type " +
               (value.type ? printType(*value.type) : std::string("(unknown)")) +
               " but the given value is " + printType(inputs[i].type()));
    arguments.push_back(interp::PerDevice{inputs[i]});
  }
  interp::RegionEvaluator evaluator(graph, options);
  std::vector<interp::PerDevice> results =
      evaluator.run(graph.main, interp::DeviceGrid::single(), std::move(arguments));
  std::vector<Literal> outputs;
  for (interp::PerDevice &result : results)
    outputs.push_back(std::move(result.front()));
  return outputs;
}

} // namespace shardgen
