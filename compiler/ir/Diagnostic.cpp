#include "compiler/ir/Diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "compiler/ir/Utf8.h"

namespace shardgen {

namespace {

/// Whether escapedText escapes code point `code`: the C1 controls, what
/// reorders text or breaks lines (bidi marks, embeddings, overrides and
/// isolates, U+2028/2029), and what prints as nothing or as a plain space
/// (soft hyphen, zero-width space and joiners, word joiner and invisible
/// operators, the byte order mark, interlinear annotations, tags, variation
/// selectors, fillers, the grapheme joiner, format controls of other
/// scripts, and the spaces that are not U+0020), by which "x\u200b" or
/// "x\u00a0" would read as "x" or "x ". Combining marks print (as accents)
/// and stay.
bool isEscapedCodePoint(uint32_t code) {
  static constexpr uint32_t kRanges[][2] = {
      {0x80, 0xa0},       {0xad, 0xad},       {0x034f, 0x034f},   {0x061c, 0x061c},
      {0x115f, 0x1160},   {0x17b4, 0x17b5},   {0x180b, 0x180f},   {0x2000, 0x200f},
      {0x2028, 0x202f},   {0x205f, 0x206f},   {0x2800, 0x2800},   {0x3000, 0x3000},
      {0x3164, 0x3164},   {0xfe00, 0xfe0f},   {0xfeff, 0xfeff},   {0xffa0, 0xffa0},
      {0xfff9, 0xfffb},   {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
      {0xe0000, 0xe0fff},
  };
  for (const auto &range : kRanges)
    if (code >= range[0] && code <= range[1])
      return true;
  return false;
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
    } else if (byte >= 0x80) {
      // A character whole, or its code when it is one escaped; a byte that
      // is not UTF-8 (a stray 0x9b is CSI to an 8-bit terminal) as its code.
      const size_t length = utf8SequenceLength(text, i);
      const uint32_t code = length ? codePointAt(text, i, length) : 0;
      if (length == 0) {
        std::snprintf(escape, sizeof escape, "\\x%02x", byte);
        out += escape;
      } else if (isEscapedCodePoint(code)) {
        std::snprintf(escape, sizeof escape, code > 0xffff ? "\\U%08x" : "\\u%04x",
                      static_cast<unsigned>(code));
        out += escape;
        i += length - 1;
      } else {
        out.append(text.substr(i, length));
        i += length - 1;
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
