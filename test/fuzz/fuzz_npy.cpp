// The .npy reader: what it accepts serializes to a file that reads back to
// the same literal.
#include "compiler/frontend/Npy.h"
#include "test/fuzz/FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  shardgen::fuzz::expectOnly([&] {
    shardgen::Literal literal = shardgen::parseNpy(bytes, "fuzz.npy");
    std::string written = shardgen::serializeNpy(literal);
    if (!(shardgen::parseNpy(written, "again.npy") == literal))
      shardgen::fuzz::bug("serializeNpy", "the written file reads back differently");
  });
  return 0;
}
