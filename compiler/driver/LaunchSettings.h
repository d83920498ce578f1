#pragma once
// How a front end that runs programs in-process (shardgen run, the Python
// module) launches them on the threads backend.

#include "runtime/include/shardgen/launch.h"

namespace shardgen::driver {

/// Launch options for a run with `timeoutSeconds` (0: no limit), with the
/// watchdog's test hook: SHARDGEN_TEST_STALL_DEVICE=P makes the device at
/// mesh position P stall before its first collective until the run ends by
/// timeout or cancellation (docs/decisions.md). Read here, by the front
/// ends, never by the runtime AOT programs link.
runtime::LaunchOptions launchOptions(double timeoutSeconds);

} // namespace shardgen::driver
