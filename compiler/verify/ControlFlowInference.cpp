// while, case and if (StableHLO's control flow): the types their regions
// take and return. The regions' own ops were verified before (Verifier.cpp:
// an op's regions before its rule).

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

std::string typeList(const Graph &graph, const std::vector<ValueId> &values) {
  std::string text = "(";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + printType(graph.type(values[i]));
  return text + ")";
}

std::vector<ValueId> returnedValues(const Region &region) {
  std::vector<ValueId> values;
  for (const RegionResult &result : region.results)
    values.push_back(result.value);
  return values;
}

/// `region` takes exactly `types` (`what`: "cond", "body").
void checkArguments(const InferenceContext &context, const Region &region, const std::string &what,
                    const std::vector<TensorType> &types) {
  const Graph &graph = context.graph;
  if (region.args.size() != types.size())
    fail(joinPointer(region.pointer, "args"),
         context.opLabel() + " " + what + " takes " + std::to_string(region.args.size()) +
             " arguments, expected " + std::to_string(types.size()) + " (one per operand)");
  for (size_t i = 0; i < types.size(); ++i)
    if (graph.type(region.args[i].value) != types[i])
      fail(joinPointer(region.args[i].pointer, "type"),
           context.opLabel() + " " + what + " argument " + std::to_string(i) + " has type " +
               printType(graph.type(region.args[i].value)) + ", expected " + printType(types[i]) +
               " (the type of operand " + std::to_string(i) + ")");
}

/// `region` returns exactly `types`.
void checkReturned(const InferenceContext &context, const Region &region, const std::string &what,
                   const std::vector<TensorType> &types, const std::string &expectation) {
  const Graph &graph = context.graph;
  if (region.results.size() != types.size())
    fail(joinPointer(region.pointer, "return"),
         context.opLabel() + " " + what + " returns " + std::to_string(region.results.size()) +
             " values " + typeList(graph, returnedValues(region)) + ", expected " +
             std::to_string(types.size()) + " " + expectation);
  for (size_t i = 0; i < types.size(); ++i)
    if (graph.type(region.results[i].value) != types[i])
      fail(region.results[i].pointer, context.opLabel() + " " + what + " returns " +
                                          printType(graph.type(region.results[i].value)) +
                                          " as value " + std::to_string(i) + ", expected " +
                                          printType(types[i]) + " " + expectation);
}

void checkResultCount(const InferenceContext &context, size_t count) {
  if (context.op.results.size() != count)
    context.failAttr(context.op.pluralResults ? "results" : "result",
                     "has " + std::to_string(count) + " results (one per value its regions " +
                         "return), got " + std::to_string(context.op.results.size()));
}

/// case and if: branches without arguments returning one list of types.
ResultTypes inferBranches(const InferenceContext &context, const std::vector<std::string> &names) {
  const Op &op = context.op;
  const Graph &graph = context.graph;
  if (op.regions.empty())
    context.failAttr(names.front(), "needs at least one branch");
  std::vector<TensorType> types;
  for (ValueId v : returnedValues(op.regions[0]))
    types.push_back(graph.type(v));
  for (size_t b = 0; b < op.regions.size(); ++b) {
    const Region &branch = op.regions[b];
    const std::string what = b < names.size() ? names[b] : names.back() + " " + std::to_string(b);
    if (!branch.args.empty())
      fail(joinPointer(branch.pointer, "args"), context.opLabel() + " " + what +
                                                    " takes no arguments, got " +
                                                    std::to_string(branch.args.size()));
    checkReturned(context, branch, what, types, "(what branch 0 returns)");
  }
  checkResultCount(context, types.size());
  return types;
}

/// At the op's operand 0 (the case index, the if predicate).
[[noreturn]] void failSelector(const InferenceContext &context, const std::string &message) {
  fail(joinPointer(joinPointer(context.op.pointer, "operands"), 0),
       context.opLabel() + " " + message);
}

/// Whether a value inside a manual computation body is the same on every
/// device: made of constants, of loop counters that start and step by them,
/// and of all_reduce results over every manual axis; not of the devices' own
/// pieces (the body's arguments), axis_index or other collectives.
class Uniformity {
public:
  Uniformity(const Graph &graph, const ManualScope &scope) : graph_(graph), scope_(scope) {}

  bool uniform(ValueId v) {
    if (auto found = memo_.find(v); found != memo_.end())
      return found->second;
    if (!inProgress_.insert(v).second)
      return true; // a loop's value through its own body: the other sources decide
    const bool result = compute(graph_.value(v));
    inProgress_.erase(v);
    memo_[v] = result;
    return result;
  }

private:
  bool compute(const Value &value) {
    if (!value.definingOp) {
      const Op *parent = value.region ? value.region->parentOp : nullptr;
      if (!parent)
        return true;
      if (parent->kind != OpKind::While)
        return false; // a manual computation's argument: the device's own piece
      const auto i = static_cast<size_t>(value.argumentIndex);
      return uniform(parent->operands[i]) && uniform(parent->regions[1].results[i].value);
    }
    const Op &op = *value.definingOp;
    const auto r = static_cast<size_t>(value.resultIndex);
    if (op.kind == OpKind::AllReduce) {
      const std::vector<std::string> &axes = op.attr<AllReduceAttrs>().axes;
      return std::all_of(scope_.manualAxes.begin(), scope_.manualAxes.end(), [&](const auto &axis) {
        return std::find(axes.begin(), axes.end(), axis.first) != axes.end();
      });
    }
    if (isCollective(op.kind) || op.kind == OpKind::ManualComputation)
      return false;
    if (op.kind == OpKind::While)
      return uniform(op.operands[r]) && uniform(op.regions[1].results[r].value) &&
             uniform(op.regions[0].results[0].value);
    if (op.kind == OpKind::Case || op.kind == OpKind::If) {
      bool all = uniform(op.operands[0]);
      for (const Region &branch : op.regions)
        all = all && uniform(branch.results[r].value);
      return all;
    }
    return std::all_of(op.operands.begin(), op.operands.end(),
                       [&](ValueId operand) { return uniform(operand); });
  }

  const Graph &graph_;
  const ManualScope &scope_;
  std::unordered_map<ValueId, bool> memo_;
  std::unordered_set<ValueId> inProgress_;
};

/// Inside a manual computation each device runs the body on its own data: a
/// loop or branch whose regions hold collectives must take one path on every
/// device (else the devices wait for each other forever).
void checkOnePath(const InferenceContext &context, ValueId selector, const std::string &what) {
  if (!context.scope.insideBody)
    return;
  bool collectives = false;
  for (const Region &region : context.op.regions)
    walkAllOps(region, [&](const Op &inner) {
      collectives |= isCollective(inner.kind) && inner.kind != OpKind::AxisIndex;
    });
  if (collectives && !Uniformity(context.graph, context.scope).uniform(selector))
    context.failOp("inside a manual computation runs collectives, but its " + what +
                   " may differ between the devices (it depends on a device's own data or "
                   "position): every device must take the same path");
}

} // namespace

ResultTypes inferWhile(const InferenceContext &context) {
  const Op &op = context.op;
  if (op.regions.size() != 2)
    context.failOp("needs a `cond` and a `body` region");
  std::vector<TensorType> carried;
  for (size_t i = 0; i < context.numOperands(); ++i)
    carried.push_back(context.operand(i));
  const Region &cond = op.regions[0], &body = op.regions[1];
  // (C1) cond: (T0, ..., TN-1) -> tensor<i1>; (C2) body: (T0, ...) -> (T0, ...).
  checkArguments(context, cond, "cond", carried);
  checkReturned(context, cond, "cond", {TensorType{ElementType::I1, {}}},
                "(a scalar i1 condition)");
  checkArguments(context, body, "body", carried);
  checkReturned(context, body, "body", carried, "(the types of the operands)");
  checkResultCount(context, carried.size());
  checkOnePath(context, cond.results[0].value, "condition");
  return carried; // (C3)
}

ResultTypes inferCase(const InferenceContext &context) {
  // (I1) a 0-dimensional si32 index.
  if (context.operand(0) != TensorType{ElementType::I32, {}})
    failSelector(context,
                 "index must be a tensor<i32> scalar, got " + printType(context.operand(0)));
  std::vector<std::string> names;
  for (size_t b = 0; b < context.op.regions.size(); ++b)
    names.push_back("branch " + std::to_string(b));
  if (names.empty())
    names.push_back("branches");
  ResultTypes types = inferBranches(context, names);
  checkOnePath(context, context.op.operands[0], "index");
  return types;
}

ResultTypes inferIf(const InferenceContext &context) {
  if (context.operand(0) != TensorType{ElementType::I1, {}})
    failSelector(context, "pred must be a tensor<i1> scalar, got " + printType(context.operand(0)));
  if (context.op.regions.size() != 2)
    context.failOp("needs a `true_branch` and a `false_branch` region");
  ResultTypes types = inferBranches(context, {"true_branch", "false_branch"});
  checkOnePath(context, context.op.operands[0], "predicate");
  return types;
}

} // namespace shardgen::verify
