#include "compiler/frontend/FlatElementScanner.h"

#include "compiler/frontend/PlainJsonParser.h"

namespace shardgen {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

class Cursor {
public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool consume(char c) {
    skipSpace();
    if (at_ < text_.size() && text_[at_] == c)
      return ++at_, true;
    return false;
  }
  bool atEnd() {
    skipSpace();
    return at_ == text_.size();
  }
  char peek() {
    skipSpace();
    return at_ < text_.size() ? text_[at_] : '\0';
  }

  /// A string of printable ASCII whose '"' is next; `raw` is its content.
  bool string(std::string_view &raw, bool &escaped) {
    if (!consume('"'))
      return false;
    size_t start = at_;
    escaped = false;
    for (; at_ < text_.size() && text_[at_] != '"'; ++at_) {
      char c = text_[at_];
      if (c < 0x20 || c > 0x7e)
        return false;
      if (c == '\\') {
        escaped = true;
        ++at_; // the escaped character, '"' included
      }
    }
    if (at_ >= text_.size())
      return false;
    raw = text_.substr(start, at_++ - start);
    return true;
  }

  /// An array of strings or of integers (or empty) whose '[' is next; `raw`
  /// is the text between the brackets.
  bool array(std::string_view &raw) {
    if (!consume('['))
      return false;
    size_t start = at_;
    while (at_ < text_.size() && text_[at_] != ']') {
      char c = text_[at_];
      if (c == '{' || c == '[')
        return false;
      if (c == '"') {
        std::string_view unused;
        bool escaped = false;
        if (!string(unused, escaped))
          return false;
        continue;
      }
      ++at_;
    }
    if (at_ >= text_.size())
      return false;
    raw = text_.substr(start, at_++ - start);
    return true;
  }

private:
  void skipSpace() {
    while (at_ < text_.size() && isSpace(text_[at_]))
      ++at_;
  }
  std::string_view text_;
  size_t at_ = 0;
};

} // namespace

bool FlatElement::scan(std::string_view text) {
  count_ = 0;
  Cursor cursor(text);
  if (!cursor.consume('{'))
    return false;
  if (!cursor.consume('}')) {
    do {
      if (count_ == kMaxMembers)
        return false;
      FlatMember member;
      bool keyEscaped = false;
      if (!cursor.string(member.key, keyEscaped) || keyEscaped || !cursor.consume(':') ||
          find(member.key))
        return false;
      if (cursor.peek() == '"') {
        if (!cursor.string(member.raw, member.escaped))
          return false;
      } else {
        member.kind = FlatMember::Kind::Array;
        if (!cursor.array(member.raw))
          return false;
      }
      members_[count_++] = member;
    } while (cursor.consume(','));
    if (!cursor.consume('}'))
      return false;
  }
  return cursor.atEnd();
}

const FlatMember *FlatElement::find(std::string_view key) const {
  for (size_t i = 0; i < count_; ++i)
    if (members_[i].key == key)
      return &members_[i];
  return nullptr;
}

bool flatStrings(const FlatMember &member, std::vector<std::string_view> &strings) {
  strings.clear();
  if (member.kind != FlatMember::Kind::Array)
    return false;
  Cursor cursor(member.raw);
  if (cursor.atEnd())
    return true;
  do {
    std::string_view raw;
    bool escaped = false;
    if (!cursor.string(raw, escaped) || escaped)
      return false;
    strings.push_back(raw);
  } while (cursor.consume(','));
  return cursor.atEnd();
}

bool flatIntegers(const FlatMember &member, std::vector<int64_t> &integers) {
  integers.clear();
  if (member.kind != FlatMember::Kind::Array)
    return false;
  std::string_view raw = member.raw;
  size_t at = 0;
  auto skipSpace = [&] {
    while (at < raw.size() && isSpace(raw[at]))
      ++at;
  };
  skipSpace();
  if (at == raw.size())
    return true;
  while (true) {
    bool negative = at < raw.size() && raw[at] == '-';
    size_t start = negative ? at + 1 : at, end = start;
    while (end < raw.size() && raw[end] >= '0' && raw[end] <= '9')
      ++end;
    // Plain JSON integers only: no leading zero, no fraction or exponent.
    if (end == start || end - start > 18 || (end - start > 1 && raw[start] == '0'))
      return false;
    int64_t magnitude = 0;
    for (size_t i = start; i < end; ++i)
      magnitude = magnitude * 10 + (raw[i] - '0');
    integers.push_back(negative ? -magnitude : magnitude);
    at = end;
    skipSpace();
    if (at == raw.size())
      return true;
    if (raw[at] != ',')
      return false;
    ++at;
    skipSpace();
  }
}

bool flatString(const FlatMember &member, std::string &text) {
  if (member.kind != FlatMember::Kind::String)
    return false;
  if (!member.escaped) {
    text.assign(member.raw);
    return true;
  }
  text.clear();
  for (size_t i = 0; i < member.raw.size(); ++i) {
    char c = member.raw[i];
    if (c == '\\') {
      if (++i == member.raw.size())
        return false;
      c = unescapedJsonChar(member.raw[i]);
      if (c == 0)
        return false;
    }
    text += c;
  }
  return true;
}

} // namespace shardgen
