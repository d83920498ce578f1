#pragma once
// The compile cache of the commands that JIT (run): compiled programs are
// kept in $XDG_CACHE_HOME/shardgen (else ~/.cache/shardgen), so a second run
// of an unchanged graph skips clang and code generation. `--no-cache` turns
// it off; so does SHARDGEN_NO_CACHE=1 in the environment. The folder is
// opened and checked by the JIT (compiler/jit/ObjectCache.h), which says
// here, as a warning, when it does not use it or removes a damaged entry.

#include "compiler/cli/CommandLine.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/jit/JitCompiler.h"

namespace shardgen::cli {

extern const OptionSpec kNoCacheOption;

/// generatedCodeJitOptions(customCalls) with the cache folder (created mode
/// 0700 if missing; the runtime's linker-name probe is cached there too) and
/// its warnings to stderr, unless --no-cache, SHARDGEN_NO_CACHE=1 or no home.
JitOptions cachedJitOptions(const ParsedArgs &args, const CustomCallFunctions &customCalls);

} // namespace shardgen::cli
