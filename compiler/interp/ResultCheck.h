#pragma once
// Comparing a sharded run's outputs with the reference interpreter's, element
// by element, within the bound the interpreter computed for each element
// (evaluateWithBounds: reduction order, kernel approximations, propagated).
// A bound of 0 means bit-exact (the sign of zero included); +inf means the
// element is not determined and is not compared. Integers and i1 compare
// exactly (unless their bound says otherwise). NaN matches only NaN and
// infinities must match exactly. --rtol/--atol replace the computed bound by
// atol + rtol * |expected|.

#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Literal.h"

namespace shardgen {

/// User tolerances that replace the computed bounds of float elements
/// (either one alone leaves the other at 0).
struct ToleranceOverride {
  std::optional<double> rtol, atol;
  bool active() const { return rtol || atol; }
};

struct OutputMismatch {
  size_t output = 0;          // which output
  std::string name;           // its name in the graph, if known
  std::vector<int64_t> index; // the differing element reported, per dim
  std::string actual, expected, bound;
  /// With MismatchSearch::Worst: how many elements differ in all outputs.
  int64_t differing = 1;
  /// "output 0 (y) differs at index [1, 3]: got 0.5, expected 0.25, allowed
  /// difference 1.2e-07"
  std::string describe() const;
};

/// Which differing element a comparison reports: the first (it stops
/// there), or the worst of all (the largest difference beyond its bound; a
/// NaN or infinity where the reference has another value is worse than any
/// finite difference), counting them.
enum class MismatchSearch { First, Worst };

/// An output element where `actual` differs from `expected.values` by more
/// than its bound, as `search` picks it. `names` (optional) names the outputs.
std::optional<OutputMismatch> compareOutputs(const std::vector<Literal> &actual,
                                             const BoundedEvaluation &expected,
                                             const ToleranceOverride &tolerance = {},
                                             const std::vector<std::string> &names = {},
                                             MismatchSearch search = MismatchSearch::First);

/// The graph's output names, in order.
std::vector<std::string> outputNames(const Graph &graph);

} // namespace shardgen
