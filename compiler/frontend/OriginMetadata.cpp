#include "compiler/frontend/OriginMetadata.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardgen {

namespace {
Metadata withKey(Metadata metadata, const std::string &key, std::string json) {
  for (auto &[existing, text] : metadata)
    if (existing == key) {
      text = std::move(json);
      return metadata;
    }
  metadata.emplace_back(key, std::move(json));
  return metadata;
}
} // namespace

Metadata metadataWithOrigin(const RegionArgument &slot) {
  if (!slot.origin)
    return slot.metadata;
  return withKey(slot.metadata, "_origin", quoteJsonString(slot.origin->str()));
}

Metadata metadataWithOrigin(const Op &op) {
  if (op.origins.empty())
    return op.metadata;
  if (op.origins.size() == 1 && !op.pluralResults)
    return withKey(op.metadata, "_origin", quoteJsonString(op.origins[0].str()));
  std::string origins = "[";
  for (size_t i = 0; i < op.origins.size(); ++i)
    origins += (i ? ", " : "") + quoteJsonString(op.origins[i].str());
  return withKey(op.metadata, "_origins", origins + "]");
}

namespace {

/// The strings of a JSON string literal or array of them, as the readers
/// store metadata (no escapes: origins never need them); none otherwise.
std::optional<std::vector<std::string>> plainStrings(std::string_view json) {
  std::vector<std::string> strings;
  bool array = json.starts_with('[');
  size_t i = array ? 1 : 0;
  auto skipSpace = [&] {
    while (i < json.size() && (json[i] == ' ' || json[i] == '\n'))
      ++i;
  };
  while (true) {
    skipSpace();
    if (i >= json.size() || json[i] != '"')
      return std::nullopt;
    size_t end = json.find_first_of("\"\\", i + 1);
    if (end == json.npos || json[end] != '"')
      return std::nullopt;
    strings.emplace_back(json.substr(i + 1, end - i - 1));
    i = end + 1;
    skipSpace();
    if (!array)
      break;
    if (i < json.size() && json[i] == ',') {
      ++i;
      continue;
    }
    if (i >= json.size() || json[i] != ']')
      return std::nullopt;
    ++i;
    break;
  }
  skipSpace();
  if (i != json.size() || strings.empty())
    return std::nullopt;
  return strings;
}

/// Parses the last metadata entry when it is `key` holding `count` origins
/// (a string for a singular key, else an array); removes it on success.
std::optional<std::vector<ShardingOrigin>> takeTrailing(Metadata &metadata, const char *key,
                                                        size_t count) {
  if (metadata.empty() || metadata.back().first != key)
    return std::nullopt;
  const std::string &json = metadata.back().second;
  bool singular = std::string_view(key) == "_origin";
  if (singular == json.starts_with('['))
    return std::nullopt;
  auto strings = plainStrings(json);
  if (!strings || strings->size() != count)
    return std::nullopt;
  std::vector<ShardingOrigin> origins;
  for (const std::string &text : *strings) {
    auto origin = parseShardingOrigin(text);
    if (!origin)
      return std::nullopt;
    origins.push_back(*origin);
  }
  metadata.pop_back();
  return origins;
}

bool hasKey(const Metadata &metadata, std::string_view key) {
  return std::any_of(metadata.begin(), metadata.end(),
                     [&](const auto &entry) { return entry.first == key; });
}

void takeOrigin(RegionArgument &slot) {
  if (auto origins = takeTrailing(slot.metadata, "_origin", 1))
    slot.origin = (*origins)[0];
  slot.statesOrigin = hasKey(slot.metadata, "_origin");
}

void takeOrigins(Region &region) {
  for (RegionArgument &arg : region.args)
    takeOrigin(arg);
  for (RegionResult &result : region.results)
    takeOrigin(result);
  for (Op &op : region.ops) {
    if (!op.results.empty()) {
      bool single = op.results.size() == 1 && !op.pluralResults;
      const char *key = single ? "_origin" : "_origins";
      if (auto origins = takeTrailing(op.metadata, key, op.results.size()))
        op.origins.assign(origins->begin(), origins->end());
      op.statesOrigins = hasKey(op.metadata, key);
    }
    for (Region &inner : op.regions)
      takeOrigins(inner);
  }
}

} // namespace

void takeOriginsFromMetadata(Graph &graph) { takeOrigins(graph.main); }

} // namespace shardgen
