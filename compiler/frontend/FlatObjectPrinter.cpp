#include "compiler/frontend/FlatObjectPrinter.h"

#include "compiler/frontend/JsonPrinter.h"

namespace shardgen {

FlatObjectPrinter::FlatObjectPrinter(std::string &out, size_t indent)
    : out_(out), start_(out.size()), indent_(indent) {
  out_ += '{';
}

std::string &FlatObjectPrinter::key(std::string_view key) {
  if (!memberStarts_.empty())
    out_ += ", ";
  memberStarts_.push_back(out_.size());
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
  if (memberStarts_.empty() || indent_ + (out_.size() - start_) <= kMaxInlineObjectWidth)
    return;
  // Too wide: each `"key": value` on its own line, as printJson does.
  size_t end = out_.size() - 1; // the closing brace
  std::string inlineText = out_.substr(start_, end - start_);
  out_.resize(start_);
  out_ += "{\n";
  for (size_t i = 0; i < memberStarts_.size(); ++i) {
    size_t from = memberStarts_[i] - start_;
    size_t to = i + 1 < memberStarts_.size() ? memberStarts_[i + 1] - start_ - 2 : end - start_;
    if (i)
      out_ += ",\n";
    out_.append(indent_ + 2, ' ');
    out_.append(inlineText, from, to - from);
  }
  out_ += '\n';
  out_.append(indent_, ' ');
  out_ += '}';
}

} // namespace shardgen
