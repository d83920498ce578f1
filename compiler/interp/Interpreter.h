#pragma once
// The reference interpreter: evaluates a graph on whole (unsharded) tensors
// with StableHLO's semantics. It is the oracle every sharded run is compared
// against, so it computes as XLA's CPU backend does: every op's result is
// rounded to its element type, sums accumulate in f32 for f32/f16/bf16
// (f64 for f64), f16/bf16 elementwise ops compute in f32. Manual computations
// run faithfully, once per device of the mesh on that device's local
// shards, with real collectives between the devices.

#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"
#include "runtime/include/shardgen/custom_call.h"

namespace shardgen {

/// Finds the function implementing a custom_call target; null if there is none.
using CustomCallResolver = std::function<shardgen_custom_call_fn(const std::string &target)>;

struct EvalOptions {
  /// The only source of custom_call functions: nothing is looked up in the
  /// process. Without one, a graph with a custom_call cannot be evaluated.
  CustomCallResolver customCallResolver;
  /// Stops the evaluation with an EvalTimeout when it runs longer (0: no
  /// limit), checked before each op and each loop iteration (an op itself
  /// is not interrupted).
  double timeoutSeconds = 0;
};

/// The evaluation outlasted EvalOptions::timeoutSeconds; the error's
/// pointer is the op it was about to run (in a loop that never ends, one of
/// its condition's or body's ops, or the loop itself).
class EvalTimeout : public GraphError {
public:
  using GraphError::GraphError;
};

/// Runs `graph` (which must be verified: every Value::type set) on `inputs`,
/// one per graph input with exactly its type, and returns one Literal per
/// graph output. Throws GraphError naming the input ("/inputs/1") on a count
/// or type mismatch, and at the op for a custom_call target that cannot be
/// resolved.
std::vector<Literal> evaluate(const Graph &graph, const std::vector<Literal> &inputs,
                              const EvalOptions &options = {});

/// The outputs and, per output element, how far a correct compiled program
/// may differ from them (f64 tensors of the outputs' shapes; see
/// compiler/interp/ErrorBounds.h): sums in another order, the generated
/// code's approximations of exp/tanh/logistic, propagated through the ops
/// that follow. 0 means bit-exact, +inf undetermined.
struct BoundedEvaluation {
  std::vector<Literal> values;
  std::vector<Literal> bounds;
};
BoundedEvaluation evaluateWithBounds(const Graph &graph, const std::vector<Literal> &inputs,
                                     const EvalOptions &options = {});

} // namespace shardgen
