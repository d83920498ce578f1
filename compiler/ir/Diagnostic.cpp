#include "compiler/ir/Diagnostic.h"

#include <algorithm>
#include <cstdio>

#include "compiler/ir/Utf8.h"

namespace shardgen {

namespace {

/// The code point of the 2- or 3-byte UTF-8 sequence at `i` when it is a
/// control escapedText escapes (C1, bidi, line separators), else 0.
unsigned escapedCodePoint(std::string_view text, size_t i, size_t &length) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  if (at(0) == 0xc2 && i + 1 < text.size() && at(1) >= 0x80 && at(1) <= 0x9f) {
    length = 2; // U+0080..U+009F
    return at(1);
  }
  if (at(0) == 0xd8 && i + 1 < text.size() && at(1) == 0x9c) {
    length = 2; // U+061C ARABIC LETTER MARK
    return 0x061c;
  }
  if (at(0) != 0xe2 || i + 2 >= text.size())
    return 0;
  unsigned code = ((at(0) & 0x0fu) << 12) | ((at(1) & 0x3fu) << 6) | (at(2) & 0x3fu);
  if ((at(1) & 0xc0) != 0x80 || (at(2) & 0xc0) != 0x80)
    return 0;
  bool control = code == 0x200e || code == 0x200f ||   // LRM, RLM
                 (code >= 0x2028 && code <= 0x202e) || // line/paragraph separators, embeddings
                 (code >= 0x2066 && code <= 0x2069);   // isolates
  length = 3;
  return control ? code : 0;
}

/// Whether byte `i` of `text` starts a character (is no UTF-8 continuation).
bool startsCharacter(std::string_view text, size_t i) {
  return i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xc0) != 0x80;
}

/// The first `length` bytes of `text`, less a character cut in two.
std::string_view headOf(std::string_view text, size_t length) {
  while (length > 0 && !startsCharacter(text, length))
    --length;
  return text.substr(0, length);
}

/// The last `length` bytes of `text`, less a character cut in two.
std::string_view tailOf(std::string_view text, size_t length) {
  size_t start = text.size() - length;
  while (start < text.size() && !startsCharacter(text, start))
    ++start;
  return text.substr(start);
}

} // namespace

std::string escapedText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    char escape[8];
    size_t length = 0;
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      std::snprintf(escape, sizeof escape, "\\x%02x", byte);
      out += escape;
    } else if (unsigned code = byte >= 0x80 ? escapedCodePoint(text, i, length) : 0) {
      std::snprintf(escape, sizeof escape, "\\u%04x", code);
      out += escape;
      i += length - 1;
    } else if (byte >= 0x80) {
      // A character whole; a byte that is not UTF-8 (a stray 0x9b is CSI
      // to an 8-bit terminal) as its code.
      if (const size_t sequence = utf8SequenceLength(text, i)) {
        out.append(text.substr(i, sequence));
        i += sequence - 1;
      } else {
        std::snprintf(escape, sizeof escape, "\\x%02x", byte);
        out += escape;
      }
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out;
}

std::string boundedMessage(std::string_view message) {
  const std::string escaped = escapedText(message);
  std::string out;
  out.reserve(std::min(escaped.size(), kMaxMessageLength + kMaxEchoedWord));
  for (size_t start = 0; start < escaped.size();) {
    size_t space = escaped.find(' ', start);
    size_t end = space == std::string::npos ? escaped.size() : space;
    std::string_view word = std::string_view(escaped).substr(start, end - start);
    // A word already cut ("...", 3 more) stays as it is.
    if (word.size() > kMaxEchoedWord + 3)
      out.append(headOf(word, kMaxEchoedWord)).append("...");
    else
      out.append(word);
    if (end < escaped.size())
      out += ' ';
    start = end + 1;
  }
  if (out.size() <= kMaxMessageLength)
    return out;
  const size_t tail = kMaxMessageLength / 4, head = kMaxMessageLength - tail - 5;
  return std::string(headOf(out, head)) + " ... " + std::string(tailOf(out, tail));
}

std::string joinPointer(const std::string &base, const std::string &token) {
  std::string out = base;
  out += '/';
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string joinPointer(const std::string &base, size_t index) {
  return base + "/" + std::to_string(index);
}

} // namespace shardgen
