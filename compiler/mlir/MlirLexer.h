#pragma once
// Tokens of MLIR's textual form, as far as StableHLO + Shardy modules need
// them. The lexer is a cursor: the parser asks for the next token and, where
// MLIR nests a small language of its own (tensor types, dialect attribute
// bodies `#sdy.sharding<...>`), takes the balanced raw text instead.

#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

enum class TokenKind {
  End,
  BareId,    // stablehlo.add, func.func, tensor, true, x
  PercentId, // %0, %arg0, %x#1 (text without the '%')
  AtId,      // @main, @"quoted" (text without the '@', unquoted)
  HashId,    // #loc3, #sdy.sharding (text without the '#')
  CaretId,   // ^bb0
  String,    // "text" (text unescaped)
  Integer,   // 12, -3, 0x7F80
  Float,     // 1.5, -2.0e+03
  Punct,     // ( ) [ ] { } < > , : = ? * -> + x
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;
  SourceLoc loc;
  bool is(TokenKind k, std::string_view t) const { return kind == k && text == t; }
  bool isPunct(std::string_view t) const { return is(TokenKind::Punct, t); }
};

class Lexer {
public:
  explicit Lexer(std::string_view text) : text_(text) {}

  /// The next token, without consuming it.
  const Token &peek();
  Token next();
  /// The location of the next token.
  SourceLoc here();
  /// After a '<' was consumed: the raw text up to its matching '>' (strings
  /// and nested () [] {} <> respected), which is consumed too.
  std::string balancedUntilClose(char open, char close);
  std::string_view text() const { return text_; }
  /// Fails at the first byte that is not well-formed UTF-8: strings and
  /// raw bodies (meshes, shardings) become text of a graph file, JSON.
  void requireUtf8() const;

private:
  Token lex();
  /// The token at `start` (pos_ moved past it): text from `from` on.
  Token take(TokenKind kind, size_t start, size_t from);
  void skipIdentifier();
  /// At the opening '"': the unescaped contents; pos_ past the closing one.
  std::string quotedString();
  /// %name, ^name, #name, @name or @"name" (c: the sigil, at `start`).
  Token lexSigilName(size_t start, char c);
  /// An integer (decimal or 0x hex) or float, with an optional '-'.
  Token lexNumber(size_t start);
  void skipSpace();
  SourceLoc locAt(size_t offset) const;
  [[noreturn]] void failAt(size_t offset, const std::string &message) const;

  std::string_view text_;
  size_t pos_ = 0;
  // locAt caches the last line start so scanning stays linear.
  mutable size_t lineStart_ = 0, lineNumber_ = 1, lineScan_ = 0;
  bool hasPeeked_ = false;
  Token peeked_;
};

/// An integer token's value (decimal or 0x hex); false when out of range.
bool integerValue(const std::string &text, int64_t &value);

/// Unescapes the body of an MLIR string literal (\", \\, \n, \t, \XX hex).
bool unescapeString(std::string_view body, std::string &out);

} // namespace shardgen::mlir
