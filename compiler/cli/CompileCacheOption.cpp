#include "compiler/cli/CompileCacheOption.h"

#include <iostream>

#include "compiler/cli/TerminalText.h"
#include "compiler/driver/CompileCache.h"

namespace shardgen::cli {

const OptionSpec kNoCacheOption{
    "--no-cache", OptionSpec::Flag, "",
    "compile without the compile cache ($XDG_CACHE_HOME/shardgen or ~/.cache/shardgen)"};

std::string compileCacheDir(const ParsedArgs &args) {
  if (args.has("--no-cache"))
    return "";
  driver::CompileCacheFolder folder = driver::userCompileCache();
  if (!folder.problem.empty())
    std::cerr << "shardgen: warning: not using the compile cache " << printable(folder.refused)
              << ": " << folder.problem << "\n";
  return folder.dir;
}

} // namespace shardgen::cli
