// Every sample of samples/mlir (programs as jax.jit(...).lower(...).as_text()
// prints them), compiled for its mesh and run on the threads runtime, equals
// the interpreter on the same inputs.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/mlir/MlirImporter.h"
#include "compiler/verify/Verifier.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("every MLIR sample, compiled and run on its mesh, equals the interpreter") {
  namespace fs = std::filesystem;
  std::vector<fs::path> samples;
  for (const auto &entry :
       fs::directory_iterator(fs::path(SHARDGEN_SOURCE_DIR) / "samples" / "mlir"))
    if (entry.path().extension() == ".mlir")
      samples.push_back(entry.path());
  std::sort(samples.begin(), samples.end());
  CHECK(samples.size() >= 14);
  for (const fs::path &path : samples) {
    CAPTURE(path.filename().string());
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    Graph graph = std::move(mlir::importMlir(text.str()).graph);
    verifyGraph(graph);
    CHECK(checkCompiledEqualsInterpreter(graph, 3) == "");
  }
}
