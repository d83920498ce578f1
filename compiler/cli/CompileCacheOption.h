#pragma once
// The compile cache of the commands that JIT (run): compiled programs are
// kept in $XDG_CACHE_HOME/shardgen (else ~/.cache/shardgen), so a second run
// of an unchanged graph skips clang and code generation. `--no-cache` turns
// it off; so does SHARDGEN_NO_CACHE=1 in the environment.

#include <string>

#include "compiler/cli/CommandLine.h"

namespace shardgen::cli {

extern const OptionSpec kNoCacheOption;

/// The cache folder to use, created (mode 0700) if missing, or "" for none:
/// with --no-cache, without a home, or when the folder is not safe to run
/// code from (not a folder, not owned by this user, or writable by others:
/// an object found there is executed). An unsafe or unusable folder is said
/// once on stderr; the run goes on without the cache.
std::string compileCacheDir(const ParsedArgs &args);

} // namespace shardgen::cli
