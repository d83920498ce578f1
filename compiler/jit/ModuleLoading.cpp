#include "compiler/jit/ModuleLoading.h"

#include <dlfcn.h>
#include <link.h>

#include <string>
#include <system_error>

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

void *loadModuleEntry(const std::filesystem::path &path, const char *entryName) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw JitError(std::string("cannot load the JIT module: ") + dlerror(), "");
  void *entry = dlsym(handle, entryName);
  if (!entry)
    throw JitError("the JIT module " + path.string() + " has no " + entryName, "");
  return entry;
}

} // namespace shardgen::jit
