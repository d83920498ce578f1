#include "compiler/frontend/FlatObjectPrinter.h"

#include <algorithm>
#include <cstring>

#include "compiler/frontend/JsonPrinter.h"

namespace shardgen {

FlatObjectPrinter::FlatObjectPrinter(std::string &out, size_t indent)
    : out_(out), start_(out.size()), indent_(indent) {
  out_ += '{';
}

std::string &FlatObjectPrinter::key(std::string_view key) {
  if (members_ != 0)
    out_ += ", ";
  if (members_ < kInlineMembers)
    starts_[members_] = out_.size();
  else
    moreStarts_.push_back(out_.size());
  ++members_;
  appendJsonString(key, out_);
  out_ += ": ";
  return out_;
}

void FlatObjectPrinter::string(std::string_view key, std::string_view value) {
  appendJsonString(value, this->key(key));
}

void FlatObjectPrinter::stringArray(std::string_view key,
                                    const std::vector<std::string_view> &values) {
  this->key(key) += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out_ += ", ";
    appendJsonString(values[i], out_);
  }
  out_ += ']';
}

void FlatObjectPrinter::finish() {
  out_ += '}';
  if (members_ == 0 || indent_ + (out_.size() - start_) <= kMaxInlineObjectWidth)
    return;
  lineUpMembers(out_.size() - 1);
}

/// Too wide: each `"key": value` on its own line, as printJson does. The
/// members move right in place, the last first: each lands after where it
/// was and after the members before it (no copy of the object's text).
void FlatObjectPrinter::lineUpMembers(size_t end) {
  // Inline: "{" members joined by ", " "}" (`end` is the brace); wide: "{\n",
  // each member after `pad` spaces, joined by ",\n", then "\n", the indent, "}".
  size_t pad = indent_ + 2, wideEnd = end + 2 + members_ * pad + indent_;
  out_.resize(wideEnd + 1);
  char *text = out_.data();
  size_t at = wideEnd;
  text[at] = '}';
  at -= indent_;
  std::fill_n(text + at, indent_, ' ');
  text[--at] = '\n';
  for (size_t i = members_; i-- > 0;) {
    size_t from = memberStart(i), to = i + 1 < members_ ? memberStart(i + 1) - 2 : end;
    at -= to - from;
    std::memmove(text + at, text + from, to - from);
    at -= pad;
    std::fill_n(text + at, pad, ' ');
    if (i != 0) {
      text[--at] = '\n';
      text[--at] = ',';
    }
  }
  text[start_ + 1] = '\n'; // at == start_ + 2, after "{"
}

} // namespace shardgen
