#include "compiler/cli/CompileCacheOption.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "compiler/cli/TerminalText.h"

namespace shardgen::cli {

const OptionSpec kNoCacheOption{
    "--no-cache", OptionSpec::Flag, "",
    "compile without the compile cache ($XDG_CACHE_HOME/shardgen or ~/.cache/shardgen)"};

namespace {

std::string defaultCacheDir() {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') // the XDG spec: a relative value is ignored
    return std::string(xdg) + "/shardgen";
  const char *home = std::getenv("HOME");
  if (home && *home == '/')
    return std::string(home) + "/.cache/shardgen";
  return "";
}

void warn(const std::string &message) {
  std::cerr << "shardgen: warning: " << printable(message) << "\n";
}

} // namespace

void useCompileCache(const ParsedArgs &args, JitOptions &options) {
  const char *disabled = std::getenv("SHARDGEN_NO_CACHE");
  if (args.has("--no-cache") || (disabled && std::string(disabled) == "1"))
    return;
  std::string dir = defaultCacheDir();
  if (dir.empty())
    return;
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), error);
  // Only created here: whether it is fit to run code from is checked on the
  // folder the JIT opens, not on this path (which may change meanwhile).
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    warn("not using the compile cache " + dir + ": " + std::strerror(errno));
    return;
  }
  options.cacheDir = dir;
  options.cacheWarning = warn;
}

} // namespace shardgen::cli
