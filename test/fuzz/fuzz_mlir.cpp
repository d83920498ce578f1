// The MLIR reader (importer) and verifier on arbitrary text; what they
// accept must export, in both forms, to text that imports back to the same
// graph and exports to the same text, and must write (as `import` does) a
// graph file the JSON reader and verifier accept (`check` of it).
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/verify/Verifier.h"
#include "test/fuzz/FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  shardgen::fuzz::expectOnly([&] {
    shardgen::Graph graph = shardgen::mlir::importMlir(text).graph;
    shardgen::verifyGraph(graph);
    try {
      shardgen::Graph written = shardgen::readGraph(shardgen::writeGraph(graph));
      shardgen::verifyGraph(written);
    } catch (const shardgen::GraphError &error) {
      shardgen::fuzz::bug("import writes a graph file check refuses", error.what());
    }
    for (auto form : {shardgen::mlir::MlirForm::Pretty, shardgen::mlir::MlirForm::Generic}) {
      std::string exported = shardgen::mlir::writeMlir(graph, form);
      shardgen::Graph back;
      try {
        back = shardgen::mlir::importMlir(exported).graph;
        shardgen::verifyGraph(back);
      } catch (const shardgen::GraphError &error) {
        shardgen::fuzz::bug("exported text does not import", error.what());
      }
      if (shardgen::writeGraph(back) != shardgen::writeGraph(graph))
        shardgen::fuzz::bug("round trip", "import(export(g)) differs from g");
      if (shardgen::mlir::writeMlir(back, form) != exported)
        shardgen::fuzz::bug("round trip", "export(import(export(g))) differs from export(g)");
    }
  });
  return 0;
}
