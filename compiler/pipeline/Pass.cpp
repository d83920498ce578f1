#include "compiler/pipeline/Pass.h"

namespace shardgen::pipeline {

namespace {

constexpr PassInfo kPasses[] = {
    {Pass::Read, "read", "reading", ""},
    {Pass::Verify, "verify", "verifying", "verify"},
    {Pass::Propagate, "propagate", "propagating", "propagate"},
    {Pass::Partition, "partition", "partitioning", "partition"},
    {Pass::Generate, "generate", "generating C++", "codegen"},
    {Pass::Jit, "JIT", "compiling (JIT)", ""},
};

} // namespace

std::span<const PassInfo> allPasses() { return kPasses; }

const PassInfo &passInfo(Pass pass) { return kPasses[static_cast<int>(pass)]; }

std::string_view passName(Pass pass) { return passInfo(pass).name; }

std::optional<Pass> passOfDump(std::string_view dumpName) {
  for (const PassInfo &info : kPasses)
    if (!info.dumpName.empty() && info.dumpName == dumpName)
      return info.pass;
  return std::nullopt;
}

void PassObserver::runPass(Pass, const std::function<void()> &work) { work(); }
void PassObserver::warn(Pass, const std::vector<std::string> &) {}
bool PassObserver::afterPass(Pass, const std::function<std::string()> &) { return false; }

} // namespace shardgen::pipeline
