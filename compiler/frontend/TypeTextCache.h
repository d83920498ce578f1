#pragma once
// Tensor type texts already parsed, to their uniqued types: a large graph
// spells a handful of distinct types millions of times, and parsing each
// spelling again allocated a shape per value.

#include <string>
#include <unordered_map>

#include "compiler/ir/TensorType.h"
#include "compiler/ir/Uniqued.h"

namespace shardgen {

class TypeTextCache {
public:
  /// The type `text` spells, parsed the first time only; empty with `error`
  /// set (when given) if it is not a type.
  UniquedOptional<TensorType> parse(const std::string &text, std::string *error);

private:
  /// Bounded, for a graph whose types are all different.
  static constexpr size_t kMaxEntries = 1024;
  std::unordered_map<std::string, UniquedOptional<TensorType>> types_;
};

} // namespace shardgen
