#pragma once
// Prints a flat JSON object (every member a scalar or an array of scalars)
// exactly as printJson does, without building it: on one line when it fits
// kMaxInlineObjectWidth with its indent, else one member per line. Writing a
// large graph's ops this way skips a document per op.

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
  std::string &out_;
  size_t start_, indent_;
  std::vector<size_t> memberStarts_; // where each `"key": value` begins in out_
};

} // namespace shardgen
