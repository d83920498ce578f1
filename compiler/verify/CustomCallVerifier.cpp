#include "compiler/verify/CustomCallVerifier.h"

#include <vector>

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/CustomCallNames.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

namespace {

class RuleChecker {
public:
  RuleChecker(const Graph &graph, const Op &op, const OpShardingRule &rule)
      : graph_(graph), rule_(rule), pointer_(attrPointer(op, "sharding_rule")),
        used_(rule.numFactors(), false) {}

  void checkTensors(std::span<const ValueId> values,
                    const std::vector<OpShardingRule::TensorFactors> &mappings,
                    const std::string &valueKind) {
    if (values.size() != mappings.size())
      fail(pointer_, "number of " + valueKind + "s and mappings must match: " +
                         std::to_string(values.size()) + " != " + std::to_string(mappings.size()));
    if (mappings.empty())
      fail(pointer_, "number of " + valueKind +
                         "s mappings cannot be 0. Op sharding rules can "
                         "only be defined on operations with at least one operand and result.");
    for (size_t t = 0; t < values.size(); ++t)
      checkTensor(graph_.type(values[t]), mappings[t], valueKind + " " + std::to_string(t));
  }

  void checkAllFactorsUsed() const {
    for (int64_t f = 0; f < rule_.numFactors(); ++f)
      if (!used_[f])
        fail(pointer_, "has factor " + factorName(f) + "=" + std::to_string(rule_.factorSizes[f]) +
                           " that isn't used in operand and result mappings");
  }

private:
  void checkTensor(const TensorType &type, const OpShardingRule::TensorFactors &mapping,
                   const std::string &label) {
    if (static_cast<int64_t>(mapping.size()) != type.rank())
      fail(pointer_, label + " - mapping rank must match: " + std::to_string(mapping.size()) +
                         " != " + std::to_string(type.rank()));
    std::vector<bool> usedHere(rule_.numFactors(), false);
    for (size_t d = 0; d < mapping.size(); ++d) {
      int64_t product = 1;
      for (int64_t factor : mapping[d]) {
        if (factor < 0 || factor >= rule_.numFactors())
          fail(pointer_, label +
                             " - expecting factor indices to be within 0<=...<num_factors; "
                             "received: " +
                             std::to_string(factor) +
                             ", num_factors: " + std::to_string(rule_.numFactors()));
        if (usedHere[factor])
          fail(pointer_, label + " - cannot reuse factors for the same tensor value");
        if (rule_.factorSizes[factor] == 1 && mapping[d].size() > 1)
          fail(pointer_, label + " - dim mapping can't have a factor of size 1 if there are "
                                 "multiple factors");
        usedHere[factor] = used_[factor] = true;
        auto next = checkedMul(product, rule_.factorSizes[factor]);
        product = next ? *next : -1; // -1 never equals a dim size
        if (product < 0)
          break;
      }
      if (product != type.shape[d])
        fail(pointer_, label + " - dim " + std::to_string(d) + " has size " +
                           std::to_string(type.shape[d]) +
                           " but the product of its factor sizes is " +
                           (product < 0 ? std::string("too large") : std::to_string(product)));
    }
  }

  const Graph &graph_;
  const OpShardingRule &rule_;
  std::string pointer_;
  std::vector<bool> used_;
};

} // namespace

void verifyCustomCall(const Graph &graph, const Op &op) {
  const auto &attrs = op.attr<CustomCallAttrs>();
  const std::string &target = attrs.callTargetName;
  if (auto problem = customCallTargetProblem(target))
    fail(attrPointer(op, "call_target_name"), "custom_call target \"" + target + "\" " + *problem);
  if (target == (graph.name.empty() ? "program" : graph.name))
    fail(attrPointer(op, "call_target_name"),
         "custom_call target \"" + target +
             "\" is the graph's name, which the generated header uses as its namespace");
  if (!attrs.shardingRule)
    return;
  RuleChecker checker(graph, op, *attrs.shardingRule);
  checker.checkTensors(op.operands, attrs.shardingRule->operands, "operand");
  checker.checkTensors(op.results, attrs.shardingRule->results, "result");
  checker.checkAllFactorsUsed();
}

} // namespace shardgen::verify
