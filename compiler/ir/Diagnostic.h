#pragma once
// Errors carry a JSON pointer to the offending place in the graph file, so
// every stage can report "file:pointer: error: message" without knowing files.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace shardgen {

/// `text` safe to print on a terminal: the ASCII controls and DEL as \n,
/// \t, \r or \xHH (\x00 for a NUL), the C1 controls as \u0080..\u009f, the
/// Unicode controls that reorder or break lines (bidi embeddings, overrides
/// and isolates, LRM/RLM/ALM, U+2028/2029) as \u202e etc., and what prints
/// as nothing or as a plain space (U+00A0, U+00AD, U+200B..U+200D,
/// U+2060..U+2064, U+FEFF, variation selectors, fillers, tags as
/// \U000e0041: Diagnostic.cpp lists them), so text from the input can
/// neither move the cursor, fake a line of output, display reversed nor hide
/// in a name. Other bytes are kept as they are.
std::string escapedText(std::string_view text);

/// Longest run of echoed input (characters without a space) a message keeps.
inline constexpr size_t kMaxEchoedWord = 200;
/// Longest message, echoed input included.
inline constexpr size_t kMaxMessageLength = 600;

/// A message as shardgen reports it: escapedText(), with a word longer than
/// kMaxEchoedWord (a name, a type, a token from the input) cut to that many
/// characters and "...", and a message still longer than kMaxMessageLength
/// cut in the middle (" ... "). Applying it twice changes nothing.
std::string boundedMessage(std::string_view message);

/// An error at a place of the graph. The message is bounded and escaped
/// when the error is made (boundedMessage), so what() holds all of it even
/// when the input had a NUL in it.
class GraphError : public std::runtime_error {
public:
  GraphError(std::string pointer, const std::string &message)
      : std::runtime_error(boundedMessage(message)), pointer_(std::move(pointer)) {}
  const std::string &pointer() const { return pointer_; }

private:
  std::string pointer_;
};

[[noreturn]] inline void fail(const std::string &pointer, const std::string &message) {
  throw GraphError(pointer, message);
}

/// Appends one reference token to a JSON pointer, escaping per RFC 6901.
std::string joinPointer(const std::string &base, const std::string &token);
std::string joinPointer(const std::string &base, size_t index);

} // namespace shardgen
