#include "compiler/frontend/JsonPointerPosition.h"

#include <cstdint>
#include <string>

namespace shardgen {
namespace {

/// A cursor over JSON text that skips what it does not need: values are
/// stepped over by their brackets, strings by their quotes (the text may be
/// malformed: every step stops at the end).
class PointerCursor {
public:
  explicit PointerCursor(std::string_view text) : text_(text) {}

  size_t at() const { return at_; }
  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }

  void skipSpace() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++at_;
  }
  /// Consumes `c` (after white space) if it is next.
  bool take(char c) {
    skipSpace();
    if (peek() != c)
      return false;
    ++at_;
    return true;
  }

  /// A string at the cursor, decoded (escapes, \u with surrogate pairs as
  /// UTF-8); false when there is none.
  bool readString(std::string &out) {
    out.clear();
    if (!take('"'))
      return false;
    while (!done()) {
      char c = text_[at_++];
      if (c == '"')
        return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (done())
        return false;
      char escape = text_[at_++];
      switch (escape) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t code = 0;
        if (!hex4(code))
          return false;
        if (code >= 0xD800 && code < 0xDC00 && text_.substr(at_, 2) == "\\u") {
          at_ += 2;
          uint32_t low = 0;
          if (!hex4(low))
            return false;
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, code);
        break;
      }
      default:
        out += escape; // \" \\ \/
      }
    }
    return false;
  }

  /// Steps over one value (any kind); false at malformed text.
  bool skipValue() {
    skipSpace();
    if (peek() == '"') {
      std::string ignored;
      return readString(ignored);
    }
    if (peek() != '{' && peek() != '[') { // a number or a literal
      size_t start = at_;
      while (!done() && peek() != ',' && peek() != '}' && peek() != ']' && peek() != ' ' &&
             peek() != '\n' && peek() != '\r' && peek() != '\t')
        ++at_;
      return at_ > start;
    }
    int64_t depth = 0;
    while (!done()) {
      char c = peek();
      if (c == '"') {
        std::string ignored;
        if (!readString(ignored))
          return false;
        continue;
      }
      ++at_;
      if (c == '{' || c == '[')
        ++depth;
      else if ((c == '}' || c == ']') && --depth == 0)
        return true;
    }
    return false;
  }

private:
  bool hex4(uint32_t &code) {
    if (at_ + 4 > text_.size())
      return false;
    for (int k = 0; k < 4; ++k) {
      char c = text_[at_++];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0)
        return false;
      code = code * 16 + static_cast<uint32_t>(digit);
    }
    return true;
  }

  static void appendUtf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

/// The next reference token of `pointer` from `at` (past its '/'),
/// unescaped (~1 is '/', ~0 is '~').
std::string nextToken(std::string_view pointer, size_t &at) {
  std::string token;
  ++at; // the '/'
  while (at < pointer.size() && pointer[at] != '/') {
    char c = pointer[at++];
    if (c == '~' && at < pointer.size() && (pointer[at] == '0' || pointer[at] == '1'))
      c = pointer[at++] == '0' ? '~' : '/';
    token += c;
  }
  return token;
}

/// Finds member `key` of the object at the cursor; leaves the cursor at its value.
bool findMember(PointerCursor &cursor, const std::string &key) {
  if (!cursor.take('{') || cursor.take('}'))
    return false;
  std::string name;
  do {
    if (!cursor.readString(name) || !cursor.take(':'))
      return false;
    cursor.skipSpace();
    if (name == key)
      return true;
    if (!cursor.skipValue())
      return false;
  } while (cursor.take(','));
  return false;
}

/// Finds element `index` (decimal text) of the array at the cursor.
bool findElement(PointerCursor &cursor, const std::string &index) {
  if (index.empty() || index.size() > 18 ||
      index.find_first_not_of("0123456789") != std::string::npos ||
      (index.size() > 1 && index[0] == '0'))
    return false;
  int64_t wanted = std::stoll(index);
  if (!cursor.take('[') || cursor.take(']'))
    return false;
  for (int64_t k = 0;; ++k) {
    cursor.skipSpace();
    if (k == wanted)
      return true;
    if (!cursor.skipValue() || !cursor.take(','))
      return false;
  }
}

TextPosition positionOf(std::string_view text, size_t offset) {
  TextPosition position;
  size_t lineStart = 0;
  for (size_t k = 0; k < offset && k < text.size(); ++k)
    if (text[k] == '\n') {
      ++position.line;
      lineStart = k + 1;
    }
  position.column = static_cast<int64_t>(offset - lineStart) + 1;
  return position;
}

} // namespace

std::optional<TextPosition> jsonPointerPosition(std::string_view json, std::string_view pointer) {
  if (!pointer.empty() && pointer[0] != '/')
    return std::nullopt;
  PointerCursor cursor(json);
  cursor.skipSpace();
  if (cursor.done())
    return std::nullopt;
  size_t found = cursor.at(); // the deepest value found so far
  for (size_t at = 0; at < pointer.size();) {
    std::string token = nextToken(pointer, at);
    PointerCursor probe = cursor;
    bool ok = probe.peek() == '{' ? findMember(probe, token) : findElement(probe, token);
    if (!ok || probe.done())
      break;
    cursor = probe;
    found = cursor.at();
  }
  return positionOf(json, found);
}

} // namespace shardgen
