// The driver: checks the inputs, then runs regions op by op. Every value is
// held once per device of the region's grid (one device outside manual
// computations), and each value is released after its last use.

#include "compiler/interp/Interpreter.h"

#include <unordered_map>

#include "compiler/interp/Collectives.h"
#include "compiler/interp/DeviceGrid.h"
#include "compiler/interp/ErrorBounds.h"
#include "compiler/interp/LocalOps.h"
#include "compiler/interp/ManualComputation.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen {
namespace interp {
namespace {

/// A region's values (one PerDevice each) and, when tracked, their error
/// bounds (ErrorBounds.h) in the same layout.
struct Tracked {
  std::vector<PerDevice> values, bounds;
};

class RegionEvaluator {
public:
  RegionEvaluator(const Graph &graph, const EvalOptions &options, bool trackBounds)
      : graph_(graph), options_(options), trackBounds_(trackBounds) {}

  Tracked run(const Region &region, const DeviceGrid &grid, Tracked arguments) {
    std::unordered_map<ValueId, PerDevice> values, bounds;
    std::unordered_map<ValueId, int64_t> remainingUses;
    for (const Op &op : region.ops)
      for (ValueId operand : op.operands)
        ++remainingUses[operand];
    for (const RegionResult &result : region.results)
      ++remainingUses[result.value];

    for (size_t i = 0; i < region.args.size(); ++i) {
      values[region.args[i].value] = std::move(arguments.values[i]);
      if (trackBounds_)
        bounds[region.args[i].value] = std::move(arguments.bounds[i]);
    }
    for (const Op &op : region.ops) {
      std::vector<const PerDevice *> operands, operandBounds;
      for (ValueId operand : op.operands) {
        operands.push_back(&values.at(operand));
        if (trackBounds_)
          operandBounds.push_back(&bounds.at(operand));
      }
      Tracked results = evalOp(op, grid, operands, operandBounds);
      for (ValueId operand : op.operands)
        if (--remainingUses[operand] == 0) {
          values.erase(operand);
          bounds.erase(operand);
        }
      for (size_t r = 0; r < op.results.size(); ++r) {
        values[op.results[r]] = std::move(results.values[r]);
        if (trackBounds_)
          bounds[op.results[r]] = std::move(results.bounds[r]);
      }
    }

    Tracked results;
    for (const RegionResult &result : region.results) {
      results.values.push_back(values.at(result.value));
      if (trackBounds_)
        results.bounds.push_back(bounds.at(result.value));
    }
    return results;
  }

private:
  Tracked evalOp(const Op &op, const DeviceGrid &grid,
                 const std::vector<const PerDevice *> &operands,
                 const std::vector<const PerDevice *> &operandBounds) {
    try {
      if (op.kind == OpKind::ManualComputation) {
        if (trackBounds_)
          return evalManualWithBounds(op, grid, operands, operandBounds);
        return {evalManualComputation(
                    graph_, op, grid, operands,
                    [this](const Region &body, const DeviceGrid &inner,
                           std::vector<PerDevice> arguments) {
                      return run(body, inner, Tracked{std::move(arguments), {}}).values;
                    }),
                {}};
      }
      if (isCollective(op.kind)) {
        Tracked out{{evalCollective(op, grid, operands)}, {}};
        if (trackBounds_)
          out.bounds.push_back(
              collectiveBounds(graph_, op, grid, operands, operandBounds, out.values.front()));
        return out;
      }
      return evalOnEachDevice(op, grid, operands, operandBounds);
    } catch (const GraphError &error) {
      // Kernels do not know where they run; name the op for them.
      if (error.pointer().empty())
        throw GraphError(op.pointer, error.what());
      throw;
    }
  }

  /// The body runs once on values and bounds sliced alike; results are put
  /// together alike, and a sum over unreduced axes adds its reorder bound.
  Tracked evalManualWithBounds(const Op &op, const DeviceGrid &grid,
                               const std::vector<const PerDevice *> &operands,
                               const std::vector<const PerDevice *> &operandBounds) {
    checkManualComputation(op, operands.size());
    if (manualComputationIsEmpty(op))
      return {};
    const DeviceGrid inner = manualGrid(graph_, op, grid);
    Tracked body = run(*op.body(), inner,
                       Tracked{sliceManualOperands(op, inner, operands),
                               sliceManualOperands(op, inner, operandBounds)});
    Tracked out{assembleManualResults(graph_, op, grid, inner, body.values),
                assembleManualResults(graph_, op, grid, inner, body.bounds, ElementType::F64)};
    for (size_t j = 0; j < op.results.size(); ++j) {
      const int64_t count = unreducedManualCount(graph_, op, j);
      const ElementType type = out.values[j].front().elementType();
      if (count == 1 || (!isFloat(type) && !isComplex(type)))
        continue;
      std::vector<PerDevice> partialMagnitudes(op.results.size());
      for (size_t k = 0; k < op.results.size(); ++k)
        for (const Literal &partial : body.values[k])
          partialMagnitudes[k].push_back(k == j ? magnitudes(partial)
                                                : exactBounds(partial.shape()));
      std::vector<PerDevice> sums =
          assembleManualResults(graph_, op, grid, inner, partialMagnitudes, ElementType::F64);
      for (size_t device = 0; device < out.bounds[j].size(); ++device)
        addSumBound(out.bounds[j][device], sums[j][device], out.values[j][device], count);
    }
    return out;
  }

  Tracked evalOnEachDevice(const Op &op, const DeviceGrid &grid,
                           const std::vector<const PerDevice *> &operands,
                           const std::vector<const PerDevice *> &operandBounds) {
    shardgen_custom_call_fn customCall = nullptr;
    if (op.kind == OpKind::CustomCall)
      customCall = resolveCustomCall(op);
    Tracked results{std::vector<PerDevice>(op.results.size(), PerDevice(grid.size())), {}};
    if (trackBounds_)
      results.bounds.assign(op.results.size(), PerDevice(grid.size()));
    for (int64_t device = 0; device < grid.size(); ++device) {
      std::vector<const Literal *> local, localBounds;
      for (const PerDevice *operand : operands)
        local.push_back(&(*operand)[device]);
      std::vector<Literal> deviceResults = evalLocalOp(graph_, op, local, customCall);
      if (trackBounds_) {
        for (const PerDevice *bound : operandBounds)
          localBounds.push_back(&(*bound)[device]);
        std::vector<Literal> deviceBounds =
            localOpBounds(graph_, op, local, localBounds, deviceResults);
        for (size_t r = 0; r < deviceBounds.size(); ++r)
          results.bounds[r][device] = std::move(deviceBounds[r]);
      }
      for (size_t r = 0; r < deviceResults.size(); ++r)
        results.values[r][device] = std::move(deviceResults[r]);
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
  const bool trackBounds_;
};

} // namespace
} // namespace interp

namespace {

BoundedEvaluation run(const Graph &graph, const std::vector<Literal> &inputs,
                      const EvalOptions &options, bool trackBounds) {
  const std::vector<RegionArgument> &args = graph.main.args;
  if (inputs.size() != args.size())
    fail("/inputs", "the graph has " + std::to_string(args.size()) + " inputs but " +
                        std::to_string(inputs.size()) + " values were given");
  interp::Tracked arguments;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value &value = graph.value(args[i].value);
    if (!value.type || *value.type != inputs[i].type())
      fail(args[i].pointer.empty() ? joinPointer("/inputs", i) : args[i].pointer,
           "input \"" + value.name + "\" has type " +
               (value.type ? printType(*value.type) : std::string("(unknown)")) +
               " but the given value is " + printType(inputs[i].type()));
    arguments.values.push_back(interp::PerDevice{inputs[i]});
    if (trackBounds)
      arguments.bounds.push_back(interp::PerDevice{interp::exactBounds(inputs[i].shape())});
  }
  interp::RegionEvaluator evaluator(graph, options, trackBounds);
  interp::Tracked results =
      evaluator.run(graph.main, interp::DeviceGrid::single(), std::move(arguments));
  BoundedEvaluation out;
  for (interp::PerDevice &result : results.values)
    out.values.push_back(std::move(result.front()));
  for (interp::PerDevice &bound : results.bounds)
    out.bounds.push_back(std::move(bound.front()));
  return out;
}

} // namespace

std::vector<Literal> evaluate(const Graph &graph, const std::vector<Literal> &inputs,
                              const EvalOptions &options) {
  return run(graph, inputs, options, false).values;
}

BoundedEvaluation evaluateWithBounds(const Graph &graph, const std::vector<Literal> &inputs,
                                     const EvalOptions &options) {
  return run(graph, inputs, options, true);
}

} // namespace shardgen
