// reduce (StableHLO's, variadic): N inputs of one shape, then their N scalar
// init values, reduced over `dimensions` by the `reducer` (one input) or by a
// body taking N accumulators and N elements and returning N values.

#include <algorithm>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

void checkPairedBody(const InferenceContext &context, const Region &body, size_t numInputs,
                     const std::string &name, const std::string &argumentsPerInput) {
  const Graph &graph = context.graph;
  if (body.args.size() != 2 * numInputs)
    fail(joinPointer(body.pointer, "args"), context.opLabel() + " " + name + " takes " +
                                                std::to_string(2 * numInputs) + " arguments (" +
                                                argumentsPerInput + " per input), got " +
                                                std::to_string(body.args.size()));
  for (size_t i = 0; i < body.args.size(); ++i) {
    const TensorType expected{context.operand(i % numInputs).elementType, {}};
    const TensorType &actual = graph.type(body.args[i].value);
    if (actual != expected)
      fail(joinPointer(body.args[i].pointer, "type"),
           context.opLabel() + " " + name + " argument " + std::to_string(i) + " has type " +
               printType(actual) + ", expected " + printType(expected) +
               " (the element type of input " + std::to_string(i % numInputs) + ")");
  }
  if (body.results.size() != numInputs)
    fail(joinPointer(body.pointer, "return"),
         context.opLabel() + " " + name + " returns " + std::to_string(body.results.size()) +
             " values, expected " + std::to_string(numInputs) + " (one per input)");
  for (size_t i = 0; i < numInputs; ++i) {
    const TensorType expected{context.operand(i).elementType, {}};
    const TensorType &actual = graph.type(body.results[i].value);
    if (actual != expected)
      fail(body.results[i].pointer, context.opLabel() + " " + name + " returns " +
                                        printType(actual) + " as value " + std::to_string(i) +
                                        ", expected " + printType(expected));
  }
}

void checkInputsOfOneShape(const InferenceContext &context, size_t numInputs) {
  const Op &op = context.op;
  if (op.results.size() != numInputs)
    context.failAttr(op.pluralResults ? "results" : "result",
                     "has one result per input (" + std::to_string(numInputs) + "), got " +
                         std::to_string(op.results.size()));
  const TensorType &input = context.operand(0);
  for (size_t i = 1; i < numInputs; ++i)
    if (context.operand(i).shape != input.shape)
      fail(joinPointer(attrPointer(op, "operands"), i),
           context.opLabel() + " requires inputs of one shape, got " + printType(input) + " and " +
               printType(context.operand(i)));
}

size_t checkInputsThenInits(const InferenceContext &context) {
  const size_t numOperands = context.numOperands();
  if (numOperands < 2 || numOperands % 2 != 0)
    context.failAttr("operands", "takes its inputs, then their init values (an even number of "
                                 "operands, at least 2), got " +
                                     std::to_string(numOperands));
  checkInputsOfOneShape(context, numOperands / 2);
  return numOperands / 2;
}

ResultTypes inferReduce(const InferenceContext &context) {
  const auto &attrs = context.attrs<ReduceAttrs>();
  const Op &op = context.op;
  const size_t numInputs = checkInputsThenInits(context);
  const TensorType &input = context.operand(0);
  for (size_t i = 0; i < numInputs; ++i) {
    const TensorType &init = context.operand(numInputs + i);
    if (init.rank() != 0)
      context.failOp("requires a scalar init value, got " + printType(init));
    if (init.elementType != context.operand(i).elementType)
      context.failOp("requires an init value of the input's element type, got " + printType(init) +
                     " for " + printType(context.operand(i)));
  }
  if (attrs.reducer && op.body())
    context.failAttr("body", "has either a `reducer` or a `body`, not both");
  if (attrs.reducer) {
    if (numInputs != 1)
      context.failAttr("reducer", "applies a reducer to one input only; " +
                                      std::to_string(numInputs) + " inputs need a body (a region)");
    if ((*attrs.reducer == Reducer::And || *attrs.reducer == Reducer::Or) &&
        (isFloat(input.elementType) || isComplex(input.elementType)))
      context.failAttr("reducer", "reducer \"" + std::string(reducerName(*attrs.reducer)) +
                                      "\" requires integer or i1 elements, got " +
                                      printType(input));
  } else if (const Region *body = op.body()) {
    checkPairedBody(context, *body, numInputs, "body", "an accumulator and an element");
  } else {
    context.failOp("needs a `reducer` or a `body`");
  }
  checkDimensions(context, "dimensions", attrs.dimensions, input.rank());
  std::vector<TensorType> results;
  for (size_t i = 0; i < numInputs; ++i) {
    TensorType result{context.operand(i).elementType, {}};
    for (int64_t dim = 0; dim < input.rank(); ++dim)
      if (std::find(attrs.dimensions.begin(), attrs.dimensions.end(), dim) ==
          attrs.dimensions.end())
        result.shape.push_back(input.shape[dim]);
    results.push_back(std::move(result));
  }
  return results;
}

} // namespace shardgen::verify
