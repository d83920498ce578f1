#pragma once
// A seeded generator of valid random graphs (spec/graph-format.md) for
// differential tests: partitioned or compiled results must equal the
// reference interpreter's on every graph.
//
// Graphs use a random mesh of up to 8 devices (1-3 axes), random op DAGs
// drawn from the spec's op table, random shardings on inputs, outputs and
// some op results (uneven ones included), sharding constraints, sharding
// groups and manual computations whose bodies use the collectives. Values
// stay comparable: inputs are meant to be small integers (see
// testing::randomInputs), integer-valued arithmetic stays below 2^24 so it is
// exact in any summation order, non-integer values stay small, and ops that
// branch on values (compare, floor, convert, ...) only see values computed
// exactly the same way sharded or not. Deterministic per seed; fast.

#include <cstdint>
#include <string>

namespace shardgen::testing {

struct RandomGraphOptions {
  int maxOps = 14; // top-level op "moves" (some emit a few ops)
  int maxInputs = 3;
  int maxDevices = 8;
  bool shardings = true; // shardings on inputs/outputs/op results
  bool uneven = true;    // dims not divisible by their axes
  bool openDims = true;  // "?" dims (meaningful to propagation)
  bool constraints = true;
  bool groups = true;
  bool manualComputations = true;
  /// Chance that an input or output carries a random distribution (spec
  /// "Distributions") instead of a sharding; 0 keeps every seed's graph.
  double distributions = 0;
  /// Control flow (issue 25): this many extra moves add a while loop or a
  /// case whose regions read values of the graph; 0 keeps every seed's graph.
  int controlFlowMoves = 0;
};

/// A graph file (JSON text) that passes the verifier.
std::string randomGraphJson(uint64_t seed, const RandomGraphOptions &options = {});

} // namespace shardgen::testing
