// rng_bit_generator's type rule (StableHLO's C1, C2): a 1-D ui64 state of
// the algorithm's size in, the same state type and the declared output out.

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// The state sizes `algorithm` takes: THREE_FRY 2, PHILOX 2 or 3; DEFAULT is
/// XLA CPU's PHILOX.
bool stateSizeFits(RngAlgorithm algorithm, int64_t size) {
  switch (algorithm) {
  case RngAlgorithm::ThreeFry:
    return size == 2;
  case RngAlgorithm::Default:
  case RngAlgorithm::Philox:
    return size == 2 || size == 3;
  }
  return false;
}

} // namespace

ResultTypes inferRngBitGenerator(const InferenceContext &context) {
  const Op &op = context.op;
  const auto &attrs = context.attrs<RngBitGeneratorAttrs>();
  if (op.results.size() != 2)
    context.failAttr(op.pluralResults ? "results" : "result",
                     "has two results (output_state and output), got " +
                         std::to_string(op.results.size()));
  const std::optional<RngAlgorithm> algorithm = parseRngAlgorithm(attrs.rngAlgorithm);
  if (!algorithm)
    context.failAttr("rng_algorithm", "has unknown rng_algorithm '" + attrs.rngAlgorithm +
                                          "' (expected DEFAULT, THREE_FRY or PHILOX)");
  const TensorType &state = context.operand(0);
  const auto failState = [&](const std::string &message) {
    fail(joinPointer(joinPointer(op.pointer, "operands"), size_t{0}),
         context.opLabel() + " " + message);
  };
  if (state.rank() != 1 || state.elementType != ElementType::UI64)
    failState("requires a 1-dimensional ui64 initial_state, got " + printType(state));
  if (!stateSizeFits(*algorithm, state.shape[0]))
    failState("with rng_algorithm " + attrs.rngAlgorithm + " requires an initial_state of " +
              (*algorithm == RngAlgorithm::ThreeFry ? "2" : "2 or 3") + " elements, got " +
              printType(state) +
              (*algorithm == RngAlgorithm::Default ? " (DEFAULT is PHILOX, as on XLA's CPU backend)"
                                                   : ""));
  if (const auto declaredState = context.declared(0); declaredState && *declaredState != state)
    fail(resultTypePointer(op, 0), context.opLabel() +
                                       " output_state must have the type of initial_state (" +
                                       printType(state) + "), got " + printType(*declaredState));
  if (!context.declared(1))
    context.failOp("needs the output's type (`types`: the state's, then the output's)");
  const TensorType &output = *context.declared(1);
  const ElementType element = output.elementType;
  if (element == ElementType::I1 || isComplex(element) || subByteBits(element) != 0)
    fail(resultTypePointer(op, 1), context.opLabel() +
                                       " requires an output of integer or floating-point type of "
                                       "8, 16, 32 or 64 bits, got " +
                                       printType(output));
  return {state, output};
}

} // namespace shardgen::verify
