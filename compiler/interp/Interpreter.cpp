// The driver: checks the inputs, then runs regions op by op. Every value is
// held once per device of the region's grid (one device outside manual
// computations), and each value is released after its last use.

#include "compiler/interp/Interpreter.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <unordered_map>

#include "compiler/interp/Collectives.h"
#include "compiler/interp/DeviceGrid.h"
#include "compiler/interp/ErrorBounds.h"
#include "compiler/interp/LocalOps.h"
#include "compiler/interp/ManualComputation.h"
#include "compiler/ir/ControlFlow.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"

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
      : graph_(graph), options_(options), trackBounds_(trackBounds),
        deadline_(deadlineAfter(options.timeoutSeconds)) {}

  /// The values of one running region; a control-flow region reads its
  /// enclosing regions' values through `outer`.
  struct Frame {
    std::unordered_map<ValueId, PerDevice> values, bounds;
    const Frame *outer = nullptr;

    const PerDevice &value(ValueId v) const { return lookup(&Frame::values, v); }
    const PerDevice &bound(ValueId v) const { return lookup(&Frame::bounds, v); }

  private:
    const PerDevice &lookup(std::unordered_map<ValueId, PerDevice> Frame::*map, ValueId v) const {
      for (const Frame *frame = this; frame; frame = frame->outer) {
        auto found = (frame->*map).find(v);
        if (found != (frame->*map).end())
          return found->second;
      }
      throw InternalError("a value read before it is defined");
    }
  };

  Tracked run(const Region &region, const DeviceGrid &grid, Tracked arguments,
              const Frame *outer = nullptr) {
    Frame frame;
    frame.outer = outer;
    auto &values = frame.values;
    auto &bounds = frame.bounds;
    std::unordered_map<ValueId, int64_t> remainingUses;
    // Per control-flow op, the values its regions read from here: uses of
    // the op like its operands (released only after it).
    std::unordered_map<const Op *, std::vector<ValueId>> captured;
    for (const Op &op : region.ops) {
      for (ValueId operand : op.operands)
        ++remainingUses[operand];
      if (isControlFlow(op.kind))
        for (ValueId v : captured[&op] = capturedValues(op))
          ++remainingUses[v];
    }
    for (const RegionResult &result : region.results)
      ++remainingUses[result.value];

    for (size_t i = 0; i < region.args.size(); ++i) {
      values[region.args[i].value] = std::move(arguments.values[i]);
      if (trackBounds_)
        bounds[region.args[i].value] = std::move(arguments.bounds[i]);
    }
    for (size_t i = 0; i < region.ops.size(); ++i) {
      const Op &op = region.ops[i];
      checkDeadline(op);
      std::vector<const PerDevice *> operands, operandBounds;
      for (ValueId operand : op.operands) {
        operands.push_back(&frame.value(operand));
        if (trackBounds_)
          operandBounds.push_back(&frame.bound(operand));
      }
      Tracked results = isControlFlow(op.kind)
                            ? evalControlFlow(op, grid, operands, operandBounds, frame)
                            : evalOp(op, grid, operands, operandBounds);
      auto release = [&](ValueId read) {
        if (--remainingUses[read] == 0) {
          values.erase(read);
          bounds.erase(read);
        }
      };
      for (ValueId operand : op.operands)
        release(operand);
      if (auto found = captured.find(&op); found != captured.end())
        for (ValueId read : found->second)
          release(read);
      for (size_t r = 0; r < op.results.size(); ++r) {
        values[op.results[r]] = std::move(results.values[r]);
        if (trackBounds_)
          bounds[op.results[r]] = std::move(results.bounds[r]);
      }
    }

    Tracked results;
    for (const RegionResult &result : region.results) {
      results.values.push_back(frame.value(result.value));
      if (trackBounds_)
        results.bounds.push_back(frame.bound(result.value));
    }
    return results;
  }

private:
  using Clock = std::chrono::steady_clock;

  static std::optional<Clock::time_point> deadlineAfter(double seconds) {
    if (seconds <= 0)
      return std::nullopt;
    return Clock::now() +
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }

  /// Once per op: one clock read (a few ns against an op's allocations).
  void checkDeadline(const Op &op) const {
    if (!deadline_ || Clock::now() < *deadline_)
      return;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", options_.timeoutSeconds);
    throw EvalTimeout(op.pointer, "the evaluation did not finish within the timeout of " +
                                      std::string(seconds) + " s: it was about to evaluate " +
                                      quotedName(op) + " (" + op.pointer + ")");
  }

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

  /// while, case, if (StableHLO's spec): the regions run on the devices'
  /// values, reading the enclosing ones through `frame`; every device of
  /// the grid must take the same path.
  Tracked evalControlFlow(const Op &op, const DeviceGrid &grid,
                          const std::vector<const PerDevice *> &operands,
                          const std::vector<const PerDevice *> &operandBounds, const Frame &frame) {
    try {
      if (op.kind == OpKind::While) {
        Tracked state;
        for (size_t i = 0; i < operands.size(); ++i) {
          state.values.push_back(*operands[i]);
          if (trackBounds_)
            state.bounds.push_back(*operandBounds[i]);
        }
        // internal_state = operand; while cond(*internal_state):
        // internal_state = body(*internal_state).
        bool pathCertain = true;
        while (true) {
          checkDeadline(op); // (regions of no ops check nothing else)
          Tracked cond = run(op.regions[0], grid, state, &frame);
          pathCertain = pathCertain && (!trackBounds_ || exact(cond.bounds.at(0)));
          if (sameOnEveryDevice(op, cond.values.at(0), "condition") == 0)
            return pathCertain ? state : withUnknownBounds(std::move(state));
          state = run(op.regions[1], grid, std::move(state), &frame);
        }
      }
      const bool pathCertain = !trackBounds_ || exact(*operandBounds.at(0));
      int64_t taken = sameOnEveryDevice(op, *operands.at(0), "index");
      const auto branches = static_cast<int64_t>(op.regions.size());
      if (op.kind == OpKind::If)
        taken = taken != 0 ? 0 : 1; // true_branch, false_branch
      else if (taken < 0 || taken >= branches)
        taken = branches - 1; // the spec: an index out of range takes the last branch
      Tracked out = run(op.regions[static_cast<size_t>(taken)], grid, Tracked{}, &frame);
      return pathCertain ? out : withUnknownBounds(std::move(out));
    } catch (const GraphError &error) {
      if (error.pointer().empty())
        throw GraphError(op.pointer, error.what());
      throw;
    }
  }

  /// Whether a condition's or index's bound is 0 on every device: compiled
  /// code takes the interpreter's path. (A comparison that may flip, an
  /// index computed inexactly, may take another: then any result is right.)
  static bool exact(const PerDevice &bound) {
    for (const Literal &device : bound)
      for (int64_t i = 0; i < device.numElements(); ++i)
        if (device.getFloat(i) != 0)
          return false;
    return true;
  }

  static Tracked withUnknownBounds(Tracked tracked) {
    for (size_t r = 0; r < tracked.bounds.size(); ++r)
      for (size_t device = 0; device < tracked.bounds[r].size(); ++device)
        tracked.bounds[r][device] = unknownBounds(tracked.values[r][device].shape());
    return tracked;
  }

  /// The scalar every device of the grid holds (a condition, an index): the
  /// devices of a manual computation must agree on the path they take.
  static int64_t sameOnEveryDevice(const Op &op, const PerDevice &scalar, const char *what) {
    const int64_t value = scalar.front().getInt(0);
    for (const Literal &device : scalar)
      if (device.getInt(0) != value)
        fail(op.pointer, quotedName(op) + "'s " + what +
                             " differs between the devices of a manual computation; each "
                             "device would take another path");
    return value;
  }

  static std::string quotedName(const Op &op) { return "\"" + std::string(op.name()) + "\""; }

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
  const std::optional<Clock::time_point> deadline_;
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
