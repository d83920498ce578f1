#pragma once
// A JSON pointer in 8 bytes, for the millions of propagation origins of a
// large graph ("/ops/5", "/inputs/4/sharding"): the text split at its last
// number into that number and an interned prefix/suffix pair, which a
// program's pointers share a handful of. Any text round-trips exactly.

#include <cstdint>
#include <string>
#include <string_view>

namespace shardgen {

class CompactPointer {
public:
  CompactPointer() = default;
  explicit CompactPointer(std::string_view text);

  /// The text it was made from ("" when default-constructed).
  std::string str() const;
  bool empty() const { return pattern_ < 0; }

  /// Equal texts, equal handles (the split is a function of the text).
  bool operator==(const CompactPointer &) const = default;

private:
  int32_t pattern_ = -1; // index of the interned prefix/suffix pair; -1: ""
  int32_t number_ = -1;  // the number between them; -1: none
};

} // namespace shardgen
