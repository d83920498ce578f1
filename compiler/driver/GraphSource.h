#pragma once
// Where a graph comes from: JSON graph text, or StableHLO + sdy MLIR text
// chosen by a `.mlir` name or by content, as every front end chooses (the
// shardgen tool, the Python module). For MLIR the places of errors are the
// line and column of the text instead of a JSON pointer.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "compiler/frontend/GraphText.h"
#include "compiler/ir/Graph.h"
#include "compiler/mlir/MlirImporter.h"

namespace shardgen::driver {

/// MLIR when `name` ends with ".mlir" or the text looks like MLIR, else JSON.
bool isMlirSource(const std::string &name, std::string_view text);

struct GraphSource {
  Graph graph; // as read: not verified
  /// MLIR text only (else null): the line and column of each pointer.
  std::shared_ptr<const mlir::SourcePlaces> places;
};

/// Reads `text`, named `name` (a file name, or a label such as "<string>"),
/// as JSON or MLIR (isMlirSource). `mlirFunction`: the entry function of an
/// MLIR module (empty: @main). Throws GraphError.
GraphSource readGraphSource(GraphText &text, const std::string &name,
                            const std::string &mlirFunction = "");

/// Where an error at `pointer` of a source lies.
struct ErrorPlace {
  std::string place;   // "12:5" for MLIR, else the pointer
  std::string message; // with the op's own source location, when MLIR gave one
  int64_t line = 0;    // 1-based; 0 when unknown
  int64_t column = 0;
};

/// The place of an error of a graph read from MLIR with `places`, or from
/// JSON (null `places`): `jsonText`, when given, places a pointer at its
/// line and column (a syntax error at the line and column the parser names).
ErrorPlace placeOfError(const mlir::SourcePlaces *places, const std::string &pointer,
                        const std::string &message, std::string_view jsonText = {});

} // namespace shardgen::driver
