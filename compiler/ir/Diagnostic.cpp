#include "compiler/ir/Diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "compiler/ir/Utf8.h"

namespace shardgen {

namespace {

/// Whether escapedText escapes code point `code`: the C1 controls, what
/// reorders text or breaks lines (bidi marks, embeddings, overrides and
/// isolates, U+2028/2029), and the format characters that print as nothing
/// (soft hyphen, zero-width space and joiners, word joiner and invisible
/// operators, the byte order mark, interlinear annotations, tags), by which
/// "x\u200b" would read as "x".
bool isEscapedCodePoint(uint32_t code) {
  return (code >= 0x80 && code <= 0x9f) || code == 0xad || code == 0x061c || code == 0x180e ||
         (code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e) ||
         (code >= 0x2060 && code <= 0x2064) || (code >= 0x2066 && code <= 0x206f) ||
         code == 0xfeff || (code >= 0xfff9 && code <= 0xfffb) ||
         (code >= 0xe0000 && code <= 0xe007f);
}

/// The code point of the valid UTF-8 sequence of `length` bytes at `i`.
uint32_t codePointAt(std::string_view text, size_t i, size_t length) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  static constexpr unsigned kLeadBits[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  uint32_t code = at(0) & kLeadBits[length];
  for (size_t k = 1; k < length; ++k)
    code = (code << 6) | (at(k) & 0x3fu);
  return code;
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
    char escape[12];
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      std::snprintf(escape, sizeof escape, "\\x%02x", byte);
      out += escape;
    } else if (const size_t length = byte >= 0x80 ? utf8SequenceLength(text, i) : 0;
               length != 0 && isEscapedCodePoint(codePointAt(text, i, length))) {
      const uint32_t code = codePointAt(text, i, length);
      std::snprintf(escape, sizeof escape, code > 0xffff ? "\\U%08x" : "\\u%04x",
                    static_cast<unsigned>(code));
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
