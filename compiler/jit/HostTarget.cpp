#include "compiler/jit/HostTarget.h"
#include "compiler/jit/JitCompiler.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/TargetParser/Host.h>

namespace shardgen {

std::string hostCpuName() { return llvm::sys::getHostCPUName().str(); }

namespace jit {

std::vector<std::string> hostCpuFeatures() {
  std::vector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.getValue() ? "+" : "-") + feature.getKey().str());
  return features;
}

} // namespace jit
} // namespace shardgen
