#pragma once
// What a scalar body (RegionRole::Scalar: a reduce's body) may hold: scalar
// arguments, per-element ops and scalar constants (what the interpreter's
// scalar-region evaluator and the generated scalar functions run), and no
// shardings. The op using the body checks its signature.

#include <string>

#include "compiler/ir/Graph.h"

namespace shardgen::verify {

/// Checks `region` (whose owner is `what`, e.g. "a reduce body") before its
/// ops are verified: arguments of rank 0, only per-element ops and
/// constants, no shardings or distributions.
void checkScalarRegionContents(const Graph &graph, const Region &region, const std::string &what);

/// After its ops are verified: every constant and returned value is a scalar.
void checkScalarRegionResults(const Graph &graph, const Region &region, const std::string &what);

} // namespace shardgen::verify
