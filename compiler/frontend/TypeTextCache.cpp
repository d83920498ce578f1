#include "compiler/frontend/TypeTextCache.h"

namespace shardgen {

UniquedOptional<TensorType> TypeTextCache::parse(const std::string &text, std::string *error) {
  if (auto cached = types_.find(text); cached != types_.end())
    return cached->second;
  UniquedOptional<TensorType> type = parseType(text, error);
  if (type && types_.size() < kMaxEntries)
    types_.emplace(text, type);
  return type;
}

} // namespace shardgen
