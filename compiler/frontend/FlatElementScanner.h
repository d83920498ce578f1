#pragma once
// Splits the text of one flat JSON object (as a graph's inputs and usual ops
// are: every member a string, an array of strings or an array of integers)
// into its members, without building a document. Gives up (false) on
// anything else: nested values, numbers outside plain integers, non-ASCII
// text, escapes in keys or in array strings, a key twice, more members than
// it holds. The text is already known to be well-formed JSON.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardgen {

struct FlatMember {
  enum class Kind { String, Array };
  std::string_view key;
  Kind kind = Kind::String;
  /// String: the raw text between the quotes (`escaped` if it has escapes).
  /// Array: the text between the brackets.
  std::string_view raw;
  bool escaped = false;
};

class FlatElement {
public:
  bool scan(std::string_view text);
  const FlatMember *find(std::string_view key) const;
  std::span<const FlatMember> members() const { return {members_.data(), count_}; }

private:
  static constexpr size_t kMaxMembers = 12;
  std::array<FlatMember, kMaxMembers> members_{};
  size_t count_ = 0;
};

/// The strings of an Array member (no escapes), or false.
bool flatStrings(const FlatMember &member, std::vector<std::string_view> &strings);
/// The integers (at most 18 digits, an optional minus) of an Array member, or false.
bool flatIntegers(const FlatMember &member, std::vector<int64_t> &integers);
/// A String member's text with its escapes (not \u) resolved, or false.
bool flatString(const FlatMember &member, std::string &text);

} // namespace shardgen
