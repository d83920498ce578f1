#include "compiler/jit/ModuleLoading.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "compiler/ir/InputError.h"
#include "compiler/jit/JitCompiler.h"

namespace shardgen::jit {

std::filesystem::path ownFolder() {
  Dl_info info{};
  link_map *map = nullptr;
  std::error_code error;
  // The main program's link map entry has an empty name.
  if (dladdr1(reinterpret_cast<void *>(&ownFolder), &info, reinterpret_cast<void **>(&map),
              RTLD_DL_LINKMAP) != 0 &&
      map && map->l_name && *map->l_name) {
    std::filesystem::path path = std::filesystem::canonical(map->l_name, error);
    if (!error)
      return path.parent_path();
  }
  std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    throw JitError("cannot find the JIT module: /proc/self/exe: " + error.message(), "");
  return path.parent_path();
}

namespace {

/// Why code at `path` (symlinks resolved) is not fit to run: the file or a
/// folder above it owned by another user than root or this one, or writable
/// by others (all users, or a group other than root's and this one's; a
/// sticky folder such as /tmp excepted: what it holds is checked by owner).
/// Empty when fit. Nothing on the path can then change between this check
/// and dlopen.
std::string untrustedReason(const std::filesystem::path &path) {
  const uid_t self = ::geteuid();
  for (std::filesystem::path part = path;; part = part.parent_path()) {
    struct stat info{};
    if (::lstat(part.c_str(), &info) != 0)
      return part.string() + ": " + std::strerror(errno);
    if (part == path && !S_ISREG(info.st_mode))
      return part.string() + " is not a regular file";
    if (info.st_uid != 0 && info.st_uid != self)
      return part.string() + " belongs to another user";
    const bool sticky = S_ISDIR(info.st_mode) && (info.st_mode & S_ISVTX);
    const bool ownGroup = info.st_gid == 0 || info.st_gid == ::getegid();
    if (((info.st_mode & S_IWOTH) || ((info.st_mode & S_IWGRP) && !ownGroup)) && !sticky)
      return "others may write to " + part.string();
    if (part == part.root_path() || part.parent_path() == part)
      return "";
  }
}

} // namespace

void *loadModuleEntry(const std::filesystem::path &path, const char *entryName) {
  // Not shardgen's bug when its installation is broken or foreign: exit 1.
  std::error_code error;
  const std::filesystem::path real = std::filesystem::canonical(path, error);
  if (error)
    throw InputError("shardgen",
                     "cannot load the JIT module " + path.string() + ": " + error.message());
  if (std::string reason = untrustedReason(real); !reason.empty())
    throw InputError("shardgen", "not loading the JIT module " + real.string() +
                                     ": it is code this process would run, and " + reason);
  void *handle = dlopen(real.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw InputError("shardgen", std::string("cannot load the JIT module: ") + dlerror());
  void *entry = dlsym(handle, entryName);
  if (!entry)
    throw InputError("shardgen", "the JIT module " + real.string() + " has no " + entryName);
  return entry;
}

} // namespace shardgen::jit
