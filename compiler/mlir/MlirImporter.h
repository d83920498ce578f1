#pragma once
// MLIR text (StableHLO + Shardy, as JAX prints it) -> the IR, the same graph
// the JSON reader builds for the equivalent graph file: structure, syntax and
// name resolution only; the verifier checks the rest, as for JSON.
//
// Entities get the JSON pointers the equivalent graph file would give them
// (/inputs/0, /ops/3, /ops/3/body/ops/1, ...), and SourcePlaces maps each
// back to its line and column, so the verifier's errors (and any later
// stage's) point into the .mlir file. Errors of the importer itself are
// GraphError("line:col", message).

#include <map>
#include <string>
#include <string_view>

#include "compiler/ir/Graph.h"
#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

class SourcePlaces {
public:
  void add(const std::string &pointer, SourceLoc loc, std::string sourceLoc = "");
  /// "line:col" of the longest recorded prefix of `pointer` (pointers that
  /// are already places, "12:5", are returned as they are).
  std::string place(const std::string &pointer) const;
  /// `message`, followed by the op's own location (`#loc`) when it has one.
  std::string annotate(const std::string &pointer, const std::string &message) const;

private:
  struct Entry {
    SourceLoc loc;
    std::string sourceLoc;
  };
  const Entry *find(const std::string &pointer) const;
  std::map<std::string, Entry> entries_;
};

struct ImportOptions {
  /// The entry function; empty: @main.
  std::string function;
};

struct ImportedGraph {
  Graph graph;
  SourcePlaces places;
};

ImportedGraph importMlir(std::string_view text, const ImportOptions &options = {});

} // namespace shardgen::mlir
