#include "compiler/ir/Metadata.h"

#include <cstdio>

namespace shardgen {

std::string quoteJsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned char>(c));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::optional<std::string> metadataString(const Metadata &metadata, std::string_view key) {
  for (const auto &[name, json] : metadata) {
    if (name != key)
      continue;
    if (json.size() < 2 || json.front() != '"' || json.back() != '"')
      return std::nullopt;
    std::string text;
    for (size_t i = 1; i + 1 < json.size(); ++i) {
      if (json[i] != '\\') {
        text += json[i];
        continue;
      }
      char escaped = json[++i];
      if (escaped != '"' && escaped != '\\' && escaped != '/')
        return std::nullopt; // \n, \u...: not a name the importer writes
      text += escaped;
    }
    return text;
  }
  return std::nullopt;
}

} // namespace shardgen
