#include "compiler/driver/CompileCache.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace shardgen::driver {
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

} // namespace

CompileCacheFolder userCompileCache() {
  const char *disabled = std::getenv("SHARDGEN_NO_CACHE");
  if (disabled && std::string(disabled) == "1")
    return {};
  std::string dir = defaultCacheDir();
  if (dir.empty())
    return {};
  auto refuse = [&](std::string why) { return CompileCacheFolder{"", std::move(why), dir}; };
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), error);
  // Only created here: whether it is fit to run code from is checked by the
  // JIT on the folder it opens (jit/CacheFolder.h), not on this path, which
  // may change meanwhile.
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return refuse(std::strerror(errno));
  return {dir, "", ""};
}

} // namespace shardgen::driver
