#pragma once
// A parser of the plain subset of JSON that graph files are written in
// (objects, arrays, ASCII strings with escapes other than \uXXXX, integers of
// up to 18 digits, true/false/null, no key twice in an object), giving the
// value nlohmann's parser gives. It is several times faster than nlohmann's
// lexer; on anything outside the subset, malformed text included, it gives
// up (nullopt) and the caller parses with nlohmann, which reports errors.
// It also gives up on nesting deeper than kMaxJsonDepth (it recurses), so a
// document it takes needs no separate depth check.

#include <optional>
#include <string_view>

#include "compiler/frontend/JsonParsing.h"

namespace shardgen {

/// The character the escape `\c` stands for; 0 for `\u` (left to nlohmann)
/// and anything that is not a JSON escape.
char unescapedJsonChar(char c);

/// The value of `text`, or nullopt outside the subset.
std::optional<Json> parsePlainJson(std::string_view text);

/// What parseWithElementTexts gives, for a document all in the subset: the
/// elements of the top-level "inputs" and "ops" arrays are checked, not
/// built, and kept as text.
std::optional<DocumentWithElementTexts> splitPlainDocument(std::string_view text);

} // namespace shardgen
