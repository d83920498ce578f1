#pragma once
// Prints a flat JSON object (every member a scalar or an array of scalars)
// exactly as printJson does, without building it: on one line when it fits
// kMaxInlineObjectWidth with its indent, else one member per line. Writing a
// large graph's ops this way skips a document per op.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shardgen {

class FlatObjectPrinter {
public:
  /// Starts the object at the end of `out`, printed at `indent` columns.
  FlatObjectPrinter(std::string &out, size_t indent);

  /// Starts a member; its value is appended to the returned text (a
  /// scalar or an array of scalars, on one line), or with the helpers.
  std::string &key(std::string_view key);
  void string(std::string_view key, std::string_view value);
  void stringArray(std::string_view key, const std::vector<std::string_view> &values);
  /// Closes the object (over several lines if it is too wide for one).
  void finish();

private:
  /// Where member `i`'s `"key": value` begins in out_.
  size_t memberStart(size_t i) const {
    return i < kInlineMembers ? starts_[i] : moreStarts_[i - kInlineMembers];
  }
  void lineUpMembers(size_t end);

  static constexpr size_t kInlineMembers = 16;
  std::string &out_;
  size_t start_, indent_;
  // The members' starts: inline for the usual few (no heap block per object
  // of a million), the rest in moreStarts_.
  std::array<size_t, kInlineMembers> starts_{};
  size_t members_ = 0;
  std::vector<size_t> moreStarts_;
};

} // namespace shardgen
