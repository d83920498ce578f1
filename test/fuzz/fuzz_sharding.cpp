// The sharding parser: never throws; what it accepts prints to text that
// parses back to the same sharding.
#include "compiler/ir/Sharding.h"
#include "test/fuzz/FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<shardgen::TensorSharding> sharding;
  shardgen::fuzz::expectOnly([&] { sharding = shardgen::parseSharding(text, &error); });
  if (!sharding) {
    if (error.empty())
      shardgen::fuzz::bug("parseSharding", "rejected without a message");
    return 0;
  }
  std::string printed = shardgen::printSharding(*sharding);
  std::optional<shardgen::TensorSharding> again = shardgen::parseSharding(printed, &error);
  if (!again || *again != *sharding)
    shardgen::fuzz::bug("printSharding", printed.c_str());
  return 0;
}
