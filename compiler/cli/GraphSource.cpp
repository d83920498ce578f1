#include "compiler/cli/GraphSource.h"

#include <map>
#include <memory>

#include "compiler/cli/FileErrors.h"
#include "compiler/driver/GraphSource.h"

namespace shardgen::cli {

namespace {
/// The places of the MLIR files read by this process, by the name errors
/// show them under.
std::map<std::string, std::shared_ptr<const mlir::SourcePlaces>> &mlirFiles() {
  static std::map<std::string, std::shared_ptr<const mlir::SourcePlaces>> files;
  return files;
}
} // namespace

Graph readGraphSource(const std::string &graphPath, const std::string &mlirFunction) {
  return atFile(graphPath, [&] {
    // Freed (a mapped file: unmapped) on return, before any later stage.
    GraphText text = GraphText::load(graphPath);
    driver::GraphSource source = driver::readGraphSource(text, graphPath, mlirFunction);
    if (source.places)
      mlirFiles()[displayName(graphPath)] = std::move(source.places);
    return std::move(source.graph);
  });
}

std::pair<std::string, std::string>
placeOfError(const std::string &file, const std::string &pointer, const std::string &message) {
  auto found = mlirFiles().find(file);
  driver::ErrorPlace place = driver::placeOfError(
      found == mlirFiles().end() ? nullptr : found->second.get(), pointer, message);
  return {place.place, place.message};
}

} // namespace shardgen::cli
