#include "compiler/cli/GraphSource.h"

#include <map>

#include "compiler/cli/FileErrors.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphText.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::cli {

namespace {
/// The MLIR files read by this process, by the name errors show them under.
std::map<std::string, mlir::SourcePlaces> &mlirFiles() {
  static std::map<std::string, mlir::SourcePlaces> files;
  return files;
}
} // namespace

Graph readGraphSource(const std::string &graphPath, const std::string &mlirFunction) {
  return atFile(graphPath, [&] {
    // Freed (a mapped file: unmapped) on return, before any later stage.
    GraphText text = GraphText::load(graphPath);
    bool mlir = graphPath.ends_with(".mlir") || mlir::looksLikeMlir(text.view());
    if (!mlir)
      return readGraph(text);
    mlir::ImportedGraph imported = mlir::importMlir(text.view(), mlir::ImportOptions{mlirFunction});
    mlirFiles()[displayName(graphPath)] = std::move(imported.places);
    return std::move(imported.graph);
  });
}

std::pair<std::string, std::string>
placeOfError(const std::string &file, const std::string &pointer, const std::string &message) {
  auto found = mlirFiles().find(file);
  if (found == mlirFiles().end())
    return {pointer, message};
  return {found->second.place(pointer), found->second.annotate(pointer, message)};
}

} // namespace shardgen::cli
