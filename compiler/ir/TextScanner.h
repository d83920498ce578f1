#pragma once
// A cursor over a short text for the hand-written parsers (shardings, op
// sharding rules, .npy headers): whitespace skipping, token matching, and the
// first failure with its offset.

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

namespace shardgen {

class TextScanner {
public:
  explicit TextScanner(std::string_view text) : text_(text) {}

  std::string_view text() const { return text_; }
  size_t position() const { return pos_; }
  void setPosition(size_t pos) { pos_ = pos; }
  /// The character at the cursor, without skipping space ('\0' at the end).
  char current() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void advance(size_t n = 1) { pos_ += n; }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  /// True at the end of the text (after space).
  bool atEnd() {
    skipSpace();
    return pos_ == text_.size();
  }
  bool peek(char c) {
    skipSpace();
    return current() == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos_;
    return true;
  }
  bool consume(std::string_view word) {
    skipSpace();
    if (text_.substr(pos_, word.size()) != word)
      return false;
    pos_ += word.size();
    return true;
  }
  bool expect(char c) { return consume(c) || fail(std::string("expected '") + c + "'"); }
  bool expect(std::string_view word) {
    return consume(word) || fail("expected '" + std::string(word) + "'");
  }
  /// `open item (, item)* close`, or `open close`; `item` parses one element.
  template <typename ParseItem> bool delimitedList(char open, char close, ParseItem &&item) {
    if (!expect(open))
      return false;
    if (consume(close))
      return true;
    do {
      if (!item())
        return false;
    } while (consume(','));
    return expect(close);
  }

  /// A run of decimal digits (at most 18, so it fits in int64_t).
  bool digits(std::string_view &out) {
    skipSpace();
    size_t start = pos_;
    while (std::isdigit(static_cast<unsigned char>(current())))
      ++pos_;
    out = text_.substr(start, pos_ - start);
    return !out.empty() && out.size() <= 18;
  }

  /// A non-negative decimal integer (at most 18 digits).
  bool integer(int64_t &out) {
    std::string_view text;
    if (!digits(text))
      return fail("expected a number");
    out = 0;
    for (char c : text)
      out = out * 10 + (c - '0');
    return true;
  }

  /// Records the first failure (with the offset where it happened); returns
  /// false so parsers can `return fail(...)`.
  bool fail(const std::string &message) {
    if (error_.empty())
      error_ = message + " at offset " + std::to_string(pos_);
    return false;
  }
  const std::string &error() const { return error_; }

private:
  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

} // namespace shardgen
