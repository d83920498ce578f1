#pragma once
// The IR -> MLIR text: StableHLO + sdy in the form JAX prints (pretty ops,
// collectives in generic form as JAX prints them), or every op in MLIR's
// generic form, which mlir-opt parses with --allow-unregistered-dialect.
// importMlir(writeMlir(g)) gives g back (see docs/mlir.md for the two things
// MLIR has no syntax for: which result types the file stated, and
// "result" versus a one-element "results").
//
// What MLIR text cannot say directly goes into `shardgen.*` attributes:
// value names that are not MLIR identifiers, `_` metadata, shardings of some
// but not all results, body argument shardings, and the axes of a collective
// whose device groups alone leave them ambiguous (size-1 axes, shifts).

#include <functional>
#include <optional>
#include <string>

#include "compiler/ir/Graph.h"

namespace shardgen::mlir {

enum class MlirForm { Pretty, Generic };

struct MlirWriteOptions {
  MlirForm form = MlirForm::Pretty;
  /// When set: each op's `sdy.sharding_rule` attribute, the text inside
  /// `#sdy.op_sharding_rule<...>` (none: the op gets no attribute), in place
  /// of a custom_call's own rule. Shardy's `-sdy-populate-op-sharding-rules`
  /// form (the caller computes it: the writer knows no rules).
  std::function<std::optional<std::string>(const Op &)> shardingRule;
};

/// Requires a verified graph (every value's type known).
std::string writeMlir(const Graph &graph, const MlirWriteOptions &options);
inline std::string writeMlir(const Graph &graph, MlirForm form) {
  return writeMlir(graph, MlirWriteOptions{form, {}});
}

} // namespace shardgen::mlir
