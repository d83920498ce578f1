#include "compiler/cli/MaxMemoryOption.h"

#include <stdexcept>

namespace shardgen::cli {

const OptionSpec kMaxMemoryOption{
    "--max-memory", OptionSpec::Value, "SIZE",
    "refuse a run needing more memory than SIZE (e.g. 512M, 4G; default: 90% of this machine's)"};

driver::MemoryLimit memoryLimit(const ParsedArgs &args) {
  auto size = args.value("--max-memory");
  if (!size)
    return driver::machineMemoryLimit();
  try {
    return {driver::parseByteSize(*size, "--max-memory"), "--max-memory " + *size};
  } catch (const std::invalid_argument &error) {
    throw UsageError(error.what());
  }
}

} // namespace shardgen::cli
