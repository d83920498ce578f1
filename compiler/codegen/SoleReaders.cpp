#include <set>

#include "compiler/codegen/Fusion.h"

namespace shardgen::codegen {

SoleReaders::SoleReaders(const SpmdProgram &program)
    : readers_(program.values.size()), isOutput_(program.values.size(), false) {
  for (size_t s = 0; s < program.steps.size(); ++s)
    for (SpmdValueId v :
         std::set<SpmdValueId>(program.steps[s].inputs.begin(), program.steps[s].inputs.end()))
      readers_[v].push_back(s);
  for (SpmdValueId v : program.liveOutValues())
    isOutput_[v] = true;
}

std::optional<size_t> SoleReaders::of(SpmdValueId value) const {
  if (isOutput_[value] || readers_[value].size() != 1)
    return std::nullopt;
  return readers_[value][0];
}

} // namespace shardgen::codegen
