#pragma once
// The file locations of MLIR's `loc(...)` texts, for error notes: `loc("f.py":
// 12:3)`, `loc("name"(#loc7))`, `loc(fused[#loc1, #loc2])`, with `#locN =
// loc(...)` aliases. Each alias is resolved once and remembered: aliases
// naming other aliases several times each would otherwise cost time
// exponential in the length of the chain.

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace shardgen::mlir {

class SourceLocations {
public:
  /// `aliases`: the module's `#locN = loc(BODY)` definitions, name -> BODY.
  explicit SourceLocations(const std::vector<std::pair<std::string, std::string>> &aliases);

  /// The first file location ("f.py:12:3") in `locText` (the inside of a
  /// loc(...)), through aliases; else its first name; "" when it has none or
  /// cannot be read.
  std::string of(const std::string &locText) const;

private:
  std::string resolve(const std::string &locText, int depth) const;
  const std::string &alias(const std::string &name, int depth) const;

  std::unordered_map<std::string, std::string> bodies_;
  /// Resolved aliases; nullopt while one is being resolved (a cycle reads "").
  mutable std::unordered_map<std::string, std::optional<std::string>> resolved_;
};

} // namespace shardgen::mlir
