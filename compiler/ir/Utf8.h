#pragma once
// Well-formed UTF-8 (RFC 3629), as JSON text and so a graph file must be:
// the MLIR reader refuses anything else, and messages escape what is not.

#include <cstddef>
#include <string_view>

namespace shardgen {

/// The length (1-4) of the well-formed UTF-8 sequence at byte `i` of
/// `text`, or 0 there is none: a stray continuation byte, an overlong form,
/// a surrogate, a code point past U+10FFFF, a sequence cut short.
inline size_t utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  const size_t length = lead < 0x80                    ? 1
                        : lead >= 0xc2 && lead <= 0xdf ? 2
                        : lead >= 0xe0 && lead <= 0xef ? 3
                        : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                       : 0;
  if (length == 0 || length > text.size() - i)
    return 0;
  // The second byte's range is what rules out overlong forms, surrogates
  // and code points past U+10FFFF.
  const unsigned char low = lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
  const unsigned char high = lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
  if (length > 1 && (byte(1) < low || byte(1) > high))
    return 0;
  for (size_t k = 2; k < length; ++k)
    if ((byte(k) & 0xc0) != 0x80)
      return 0;
  return length;
}

/// The offset of the first byte of `text` that starts no well-formed UTF-8
/// sequence, or npos.
inline size_t firstInvalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8SequenceLength(text, i);
    if (length == 0)
      return i;
    i += length;
  }
  return std::string_view::npos;
}

} // namespace shardgen
