// sort (StableHLO's: N inputs of one shape sorted together along
// `dimension` by a comparator of 2N scalars) and chlo.top_k (the k largest
// elements of each last-dim row and their indices).

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// The comparator's signature (StableHLO's C5): (tensor<E_0>, tensor<E_0>,
/// ..., tensor<E_N-1>, tensor<E_N-1>) -> tensor<i1>, E_i the element type
/// of input i (its left and right element side by side).
void checkComparatorSignature(const InferenceContext &context, const Region &comparator,
                              size_t numInputs) {
  const Graph &graph = context.graph;
  if (comparator.args.size() != 2 * numInputs)
    fail(joinPointer(comparator.pointer, "args"),
         context.opLabel() + " comparator takes " + std::to_string(2 * numInputs) +
             " arguments (two elements per input), got " + std::to_string(comparator.args.size()));
  for (size_t i = 0; i < comparator.args.size(); ++i) {
    const TensorType expected{context.operand(i / 2).elementType, {}};
    const TensorType &actual = graph.type(comparator.args[i].value);
    if (actual != expected)
      fail(joinPointer(comparator.args[i].pointer, "type"),
           context.opLabel() + " comparator argument " + std::to_string(i) + " has type " +
               printType(actual) + ", expected " + printType(expected) +
               " (the element type of input " + std::to_string(i / 2) + ")");
  }
  if (comparator.results.size() != 1)
    fail(joinPointer(comparator.pointer, "return"), context.opLabel() + " comparator returns " +
                                                        std::to_string(comparator.results.size()) +
                                                        " values, expected 1 (tensor<i1>)");
  const TensorType &returned = graph.type(comparator.results[0].value);
  if (returned != TensorType{ElementType::I1, {}})
    fail(comparator.results[0].pointer, context.opLabel() + " comparator returns " +
                                            printType(returned) + ", expected tensor<i1>");
}

} // namespace

ResultTypes inferSort(const InferenceContext &context) {
  const auto &attrs = context.attrs<SortAttrs>();
  const Op &op = context.op;
  const size_t numInputs = context.numOperands();
  if (numInputs == 0)
    context.failAttr("operands", "sorts at least one input, got none");
  checkInputsOfOneShape(context, numInputs);
  const TensorType &input = context.operand(0);
  const int64_t rank = input.rank();
  if (attrs.dimension < -rank || attrs.dimension >= rank)
    context.failAttr("dimension", "dimension " + std::to_string(attrs.dimension) +
                                      " is out of range for " + printType(input) + " (expected " +
                                      std::to_string(-rank) + " <= dimension < " +
                                      std::to_string(rank) + ")");
  const Region *comparator = op.body();
  if (!comparator)
    context.failOp("needs a `comparator`");
  checkComparatorSignature(context, *comparator, numInputs);
  std::vector<TensorType> results;
  for (size_t i = 0; i < numInputs; ++i)
    results.push_back(context.operand(i));
  return results;
}

ResultTypes inferTopK(const InferenceContext &context) {
  const auto &attrs = context.attrs<TopKAttrs>();
  const Op &op = context.op;
  if (op.results.size() != 2)
    context.failAttr(op.pluralResults ? "results" : "result",
                     "has two results (values and indices), got " +
                         std::to_string(op.results.size()));
  const TensorType &operand = context.operand(0);
  if (operand.rank() == 0)
    context.failOp("requires an operand of rank 1 or more, got " + printType(operand));
  const int64_t last = operand.shape.back();
  if (attrs.k < 0 || attrs.k > last)
    context.failAttr("k", "k = " + std::to_string(attrs.k) + " is out of range for " +
                              printType(operand) + " (expected 0 <= k <= " + std::to_string(last) +
                              ", the last dim)");
  TensorType values = operand;
  values.shape.back() = attrs.k;
  TensorType indices{ElementType::I32, values.shape};
  return {values, indices};
}

} // namespace shardgen::verify
