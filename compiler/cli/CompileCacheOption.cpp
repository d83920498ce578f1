#include "compiler/cli/CompileCacheOption.h"

#include <sys/stat.h>
#include <unistd.h>

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

void warnUnused(const std::string &dir, const std::string &why) {
  std::cerr << "shardgen: warning: not using the compile cache " << printable(dir) << ": " << why
            << "\n";
}

} // namespace

std::string compileCacheDir(const ParsedArgs &args) {
  const char *disabled = std::getenv("SHARDGEN_NO_CACHE");
  if (args.has("--no-cache") || (disabled && std::string(disabled) == "1"))
    return "";
  std::string dir = defaultCacheDir();
  if (dir.empty())
    return "";
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), error);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    warnUnused(dir, std::strerror(errno));
    return "";
  }
  struct stat info{};
  if (::lstat(dir.c_str(), &info) != 0) {
    warnUnused(dir, std::strerror(errno));
    return "";
  }
  if (!S_ISDIR(info.st_mode))
    warnUnused(dir, "it is not a folder");
  else if (info.st_uid != ::geteuid())
    warnUnused(dir, "it belongs to another user");
  else if (info.st_mode & (S_IWGRP | S_IWOTH))
    warnUnused(dir, "others may write to it");
  else
    return dir;
  return "";
}

} // namespace shardgen::cli
