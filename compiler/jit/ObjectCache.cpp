#include "compiler/jit/ObjectCache.h"
#include "compiler/jit/CppFrontend.h"
#include "compiler/jit/HostTarget.h"
#include "compiler/jit/JitCompiler.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/SHA256.h>

namespace shardgen::jit {
namespace {

/// Feeds one field, length-prefixed, so no two field lists hash alike.
void addField(llvm::SHA256 &hash, llvm::StringRef field) {
  std::string length = std::to_string(field.size()) + ":";
  hash.update(llvm::StringRef(length));
  hash.update(field);
}

} // namespace

std::string cacheKey(const std::string &source, const std::string &fileName,
                     const JitOptions &options) {
  llvm::SHA256 hash;
  addField(hash, kCacheFormat);
  addField(hash, LLVM_VERSION_STRING);
  for (const std::string &argument : driverArguments(fileName, options))
    addField(hash, argument);
  addField(hash, hostCpuName());
  for (const std::string &feature : hostCpuFeatures())
    addField(hash, feature);
  addField(hash, source);
  for (const auto &[path, contents] : options.virtualFiles) {
    addField(hash, path);
    addField(hash, contents);
  }
  // Names only: addresses differ from process to process, and the object
  // refers to host symbols by name.
  for (const auto &[name, address] : options.hostSymbols)
    addField(hash, name);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

} // namespace shardgen::jit
