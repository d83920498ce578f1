#pragma once
// Which call_target_names a custom_call may have. The target is the C
// linker name of a user function that generated code declares and calls
// (JIT and AOT alike), so it must be a C identifier that no compiler, C
// library or shardgen name claims: not a C/C++ keyword, not reserved
// (leading '_', "__"), not main, not a <stddef.h>/<stdint.h> name, not a C
// library function generated code links against (memcpy, expf, ...), not
// one of shardgen's own names (shardgen, shardgen_*), not a macro GNU-mode
// compilers predefine (linux, unix).

#include <optional>
#include <string>

namespace shardgen::verify {

/// Why `target` cannot name a custom_call's function ("is a C or C++
/// keyword"), or nullopt when it can.
std::optional<std::string> customCallTargetProblem(const std::string &target);

} // namespace shardgen::verify
