#pragma once
// What the MLIR tests share: reading the samples, and comparing graphs
// modulo the two things MLIR text has no syntax for.

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Graph.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/verify/Verifier.h"
#include "test/support/TextFile.h"

namespace shardgen::testing {

inline std::vector<std::filesystem::path> filesIn(const std::filesystem::path &folder,
                                                  const std::string &extension) {
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == extension)
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// MLIR states every result type and has no "result" / one-element
/// "results" distinction: after verification, make both graphs state every
/// type (the inferred one) and use the plural form where MLIR does.
inline void normalizeForMlir(Graph &graph) {
  // Every op, those of scalar bodies (a reduce's) included.
  std::function<void(Region &)> normalize = [&](Region &region) {
    for (Op &op : region.ops) {
      op.declaredTypes.clear();
      for (ValueId result : op.results)
        op.declaredTypes.push_back(graph.type(result));
      op.pluralResults = op.results.size() != 1 || op.kind == OpKind::ManualComputation;
      for (Region &body : op.regions)
        normalize(body);
    }
  };
  normalize(graph.main);
}

/// `text` imported and verified.
inline Graph importVerified(const std::string &text) {
  mlir::ImportedGraph imported = mlir::importMlir(text);
  verifyGraph(imported.graph);
  return std::move(imported.graph);
}

/// The place ("line:col") and message of the error importing `text` (and
/// verifying it) gives.
/// The one output of `text`'s @main (no inputs), as doubles.
inline std::vector<double> evalFloats(const std::string &text) {
  Graph graph = importVerified(text);
  std::vector<Literal> results = evaluate(graph, {});
  REQUIRE(results.size() == 1);
  std::vector<double> out;
  for (int64_t i = 0; i < results[0].numElements(); ++i)
    out.push_back(results[0].getFloat(i));
  return out;
}

inline std::pair<std::string, std::string> importErrorOf(const std::string &text) {
  mlir::ImportedGraph imported;
  try {
    imported = mlir::importMlir(text);
  } catch (const GraphError &error) {
    return {error.pointer(), error.what()};
  }
  try {
    verifyGraph(imported.graph);
  } catch (const GraphError &error) {
    return {imported.places.place(error.pointer()),
            imported.places.annotate(error.pointer(), error.what())};
  }
  FAIL("no error");
  return {};
}

} // namespace shardgen::testing
