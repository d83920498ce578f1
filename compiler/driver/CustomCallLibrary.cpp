#include "compiler/driver/CustomCallLibrary.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <algorithm>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InputError.h"

namespace shardgen::driver {

CustomCallLibrary::CustomCallLibrary(std::string path) : path_(std::move(path)) {
  // With a '/', dlopen takes the name as a path instead of searching the
  // system's library folders for it.
  std::string file = path_.find('/') == std::string::npos ? "./" + path_ : path_;
  handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char *reason = dlerror();
    throw InputError(path_, std::string("cannot load the custom-call library: ") +
                                (reason ? reason : "unknown error"));
  }
}

CustomCallLibrary::~CustomCallLibrary() { dlclose(handle_); }

shardgen_custom_call_fn CustomCallLibrary::function(const std::string &name,
                                                    const std::string &pointer) const {
  const std::string prefix = "custom_call target \"" + name + "\" ";
  // dlsym on a handle also searches the library's dependencies: accept the
  // address only when the object that holds it is the library itself.
  void *address = dlsym(handle_, name.c_str());
  if (!address)
    fail(pointer, prefix + "is not defined in " + path_);
  link_map *self = nullptr, *owner = nullptr;
  Dl_info info{};
  if (dlinfo(handle_, RTLD_DI_LINKMAP, static_cast<void *>(&self)) != 0 ||
      !dladdr1(address, &info, reinterpret_cast<void **>(&owner), RTLD_DL_LINKMAP) ||
      owner != self) {
    std::string where = owner && owner->l_name && *owner->l_name ? owner->l_name : "another object";
    fail(pointer,
         prefix + "is not defined in " + path_ + " (only in " + where + ", which it depends on)");
  }
  void *entry = nullptr; // the symbol's ELF entry: a function, not data
  if (!dladdr1(address, &info, &entry, RTLD_DL_SYMENT) || !entry || info.dli_saddr != address)
    fail(pointer, prefix + "is not a function in " + path_);
  const unsigned char type = ELF64_ST_TYPE(static_cast<const ElfW(Sym) *>(entry)->st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC)
    fail(pointer, prefix + "is not a function in " + path_);
  return reinterpret_cast<shardgen_custom_call_fn>(address);
}

CustomCallFunctions customCallFunctions(const Graph &graph, const CustomCallLibrary *library,
                                        const CustomCallFunctions &registered,
                                        const std::string &howToGiveOne) {
  CustomCallFunctions functions;
  walkOps(graph.main, [&](const Op &op) {
    if (op.kind != OpKind::CustomCall)
      return;
    const std::string &target = op.attr<CustomCallAttrs>().callTargetName;
    // The ABI (shardgen/custom_call.h) passes buffers of data; a token has none.
    auto isToken = [&](ValueId value) { return graph.type(value).isToken(); };
    if (std::any_of(op.operands.begin(), op.operands.end(), isToken) ||
        std::any_of(op.results.begin(), op.results.end(), isToken))
      fail(op.pointer, "custom_call " + target +
                           " takes or returns a !stablehlo.token; custom calls run on tensors "
                           "only");
    if (auto found = registered.find(target); found != registered.end()) {
      functions.insert(*found);
      return;
    }
    std::string pointer = joinPointer(op.pointer, "call_target_name");
    if (!library)
      fail(pointer, "custom_call target \"" + target + "\" has no implementation: " +
                        (registered.empty() ? "" : "none of the functions given has its name; ") +
                        howToGiveOne);
    if (!functions.count(target))
      functions[target] = library->function(target, pointer);
  });
  return functions;
}

EvalOptions evalOptionsWith(const CustomCallFunctions &functions) {
  EvalOptions options;
  options.customCallResolver = [functions](const std::string &target) {
    auto found = functions.find(target);
    return found == functions.end() ? nullptr : found->second;
  };
  return options;
}

} // namespace shardgen::driver
