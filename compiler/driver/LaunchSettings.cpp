#include "compiler/driver/LaunchSettings.h"

#include <cstdlib>

namespace shardgen::driver {

runtime::LaunchOptions launchOptions(double timeoutSeconds) {
  runtime::LaunchOptions options;
  options.timeoutSeconds = timeoutSeconds;
  const char *stall = std::getenv("SHARDGEN_TEST_STALL_DEVICE");
  if (stall && *stall)
    options.stallPositionForTest = std::strtoll(stall, nullptr, 10);
  return options;
}

} // namespace shardgen::driver
