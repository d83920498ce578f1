// The malformed MLIR corpus: every test/mlir/bad/NAME.mlir is refused, by the
// importer or by the verifier, at the line:col and with the message of
// NAME.expected (line 1: the place, line 2: the message), as `shardgen
// check` prints them (test_cli runs one through the tool).
#include <doctest/doctest.h>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/verify/Verifier.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;
namespace fs = std::filesystem;

TEST_CASE("every malformed MLIR file is refused at its line:col with its message") {
  std::vector<fs::path> files =
      testing::filesIn(fs::path(SHARDGEN_SOURCE_DIR) / "test" / "mlir" / "bad", ".mlir");
  CHECK(files.size() >= 40);
  for (const auto &file : files) {
    INFO(file.filename().string());
    fs::path expectedPath = file;
    std::istringstream expected(testing::readFile(expectedPath.replace_extension(".expected")));
    std::string place, message;
    std::getline(expected, place);
    std::getline(expected, message);
    std::string gotPlace, gotMessage = "(accepted)";
    mlir::ImportedGraph imported;
    try {
      imported = mlir::importMlir(testing::readFile(file));
      verifyGraph(imported.graph);
    } catch (const GraphError &error) {
      gotPlace = imported.places.place(error.pointer());
      gotMessage = imported.places.annotate(error.pointer(), error.what());
    }
    CHECK(gotPlace == place);
    CHECK(gotMessage == message);
  }
}
