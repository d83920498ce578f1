#include "compiler/jit/HostTarget.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/TargetParser/Host.h>

namespace shardgen::jit {

std::string hostCpuName() { return llvm::sys::getHostCPUName().str(); }

std::vector<std::string> hostCpuFeatures() {
  std::vector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.getValue() ? "+" : "-") + feature.getKey().str());
  return features;
}

} // namespace shardgen::jit
