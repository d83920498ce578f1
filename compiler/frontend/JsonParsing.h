#pragma once
// JSON text -> document, with every failure a GraphError: a syntax error at
// the root pointer (with its line and column), a number that does not fit a
// double (1e999) at the pointer of the place it was to fill.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/frontend/JsonAccess.h"
#include "compiler/ir/NestingLimit.h"

namespace shardgen {

/// JSON nested deeper than this is refused (recursive walks stay bounded).
inline constexpr int kMaxJsonDepth = kMaxNestingDepth;

/// Where `text` first nests deeper than `maxDepth` arrays and objects ("line
/// 3, column 7"), or nullopt: a linear scan without recursion, for text a
/// recursive parser is about to read.
std::optional<std::string> jsonTooDeepAt(std::string_view text, int maxDepth = kMaxJsonDepth);

Json parseJsonDocument(std::string_view text);

/// A graph document without the elements of its top-level "inputs" and "ops"
/// arrays: those stay text (views into the parsed text), to be parsed one at
/// a time, so no document of every op is ever built.
struct DocumentWithElementTexts {
  Json root; // "inputs" and "ops" are empty arrays here
  std::vector<std::string_view> inputTexts, opTexts;
};

/// The document split so; nullopt when the text is not well-formed JSON or
/// not of that shape (one of those keys twice, an element that is not an
/// object): the caller then reads it with parseJsonDocument, which reports
/// any error.
std::optional<DocumentWithElementTexts> parseWithElementTexts(std::string_view text);

/// The same split by nlohmann's parser alone (what parseWithElementTexts
/// does when splitPlainDocument gives up).
std::optional<DocumentWithElementTexts> splitDocumentWithNlohmann(std::string_view text);

/// The document of one element `parseWithElementTexts` split off (so known
/// to be well-formed): the same value nlohmann's parser gives. Elements in
/// the plain subset graphs are made of (ASCII strings without escapes,
/// integers, no key twice) are parsed here, without nlohmann's lexer, which
/// was half of reading a large graph; anything else by nlohmann.
Json parseElementText(std::string_view text);

} // namespace shardgen
