#include "compiler/cli/CompileCacheOption.h"

#include <iostream>

#include "compiler/cli/TerminalText.h"
#include "compiler/driver/CompileCache.h"

namespace shardgen::cli {

const OptionSpec kNoCacheOption{
    "--no-cache", OptionSpec::Flag, "",
    "compile without the compile cache ($XDG_CACHE_HOME/shardgen or ~/.cache/shardgen)"};

JitOptions cachedJitOptions(const ParsedArgs &args, const CustomCallFunctions &customCalls) {
  if (args.has("--no-cache"))
    return generatedCodeJitOptions(customCalls);
  driver::CompileCacheFolder folder = driver::userCompileCache();
  auto warn = [](const std::string &message) {
    std::cerr << "shardgen: warning: " << printable(message) << "\n";
  };
  if (!folder.problem.empty())
    warn("not using the compile cache " + folder.refused + ": " + folder.problem);
  return generatedCodeJitOptions(customCalls, folder.dir, warn);
}

} // namespace shardgen::cli
