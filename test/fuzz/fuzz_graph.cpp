// The graph reader and verifier on arbitrary text.
#include "compiler/frontend/GraphReader.h"
#include "compiler/verify/Verifier.h"
#include "test/fuzz/FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  shardgen::fuzz::expectOnly([&] {
    shardgen::Graph graph = shardgen::readGraph(text);
    shardgen::verifyGraph(graph);
  });
  return 0;
}
