// while, case and if (StableHLO's control flow): the types their regions
// take and return. The regions' own ops were verified before (Verifier.cpp:
// an op's regions before its rule).

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
  return inferBranches(context, names);
}

ResultTypes inferIf(const InferenceContext &context) {
  if (context.operand(0) != TensorType{ElementType::I1, {}})
    failSelector(context, "pred must be a tensor<i1> scalar, got " + printType(context.operand(0)));
  if (context.op.regions.size() != 2)
    context.failOp("needs a `true_branch` and a `false_branch` region");
  return inferBranches(context, {"true_branch", "false_branch"});
}

} // namespace shardgen::verify
