#include "compiler/ops/OpTable.h"
#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

std::string plural(int64_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// Result count of each op, or -1 for "any number".
int64_t expectedResultCount(ResultArity arity) {
  switch (arity) {
  case ResultArity::One:
  case ResultArity::Declared:
    return 1;
  case ResultArity::None:
    return 0;
  case ResultArity::Variadic:
    return -1;
  }
  return -1;
}

} // namespace

void verifyArity(const InferenceContext &context) {
  const Op &op = context.op;
  const OpRow &row = opRow(op.kind);
  const auto operands = static_cast<int64_t>(op.operands.size());
  const auto minimum = static_cast<int64_t>(row.operands.minimum());
  if (!row.operands.variadic() && operands != minimum)
    context.failAttr("operands",
                     "takes " + plural(minimum, "operand") + ", got " + std::to_string(operands));
  if (row.operands.variadic() && operands < minimum)
    context.failAttr("operands", "takes at least " + plural(minimum, "operand") + ", got " +
                                     std::to_string(operands));

  const int64_t results = static_cast<int64_t>(op.results.size());
  const int64_t expectedResults = expectedResultCount(row.results);
  if (expectedResults >= 0 && results != expectedResults)
    context.failAttr(op.pluralResults ? "results" : "result",
                     expectedResults == 0 ? "has no result, got " + std::to_string(results)
                                          : "has " + plural(expectedResults, "result") + ", got " +
                                                std::to_string(results));
}

} // namespace shardgen::verify
