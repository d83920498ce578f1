#include "compiler/mlir/MlirLexer.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Utf8.h"

namespace shardgen::mlir {

namespace {
bool isIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}
int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}
} // namespace

bool integerValue(const std::string &text, int64_t &value) {
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 0);
  if (errno == ERANGE || end != text.c_str() + text.size() || text.empty())
    return false;
  value = parsed;
  return true;
}

bool unescapeString(std::string_view body, std::string &out) {
  out.clear();
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == body.size())
      return false;
    char e = body[i];
    if (e == '"' || e == '\\')
      out += e;
    else if (e == 'n')
      out += '\n';
    else if (e == 't')
      out += '\t';
    else if (i + 1 < body.size() && hexValue(e) >= 0 && hexValue(body[i + 1]) >= 0) {
      out += static_cast<char>(hexValue(e) * 16 + hexValue(body[i + 1]));
      ++i;
    } else
      return false;
  }
  return true;
}

void Lexer::requireUtf8() const {
  const size_t bad = firstInvalidUtf8(text_);
  if (bad == std::string_view::npos)
    return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(text_[bad]));
  failAt(bad, std::string("the text is not valid UTF-8 here (byte ") + byte +
                  "): a graph file is JSON text");
}

SourceLoc Lexer::locAt(size_t offset) const {
  if (offset < lineScan_) { // rescan from the start (rare: only going back)
    lineStart_ = 0;
    lineNumber_ = 1;
    lineScan_ = 0;
  }
  for (; lineScan_ < offset && lineScan_ < text_.size(); ++lineScan_)
    if (text_[lineScan_] == '\n') {
      ++lineNumber_;
      lineStart_ = lineScan_ + 1;
    }
  return SourceLoc{static_cast<int64_t>(lineNumber_),
                   static_cast<int64_t>(offset - lineStart_ + 1)};
}

void Lexer::failAt(size_t offset, const std::string &message) const {
  fail(locAt(offset).str(), message);
}

void Lexer::skipSpace() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n')
        ++pos_;
    } else {
      break;
    }
  }
}

SourceLoc Lexer::here() {
  if (hasPeeked_)
    return peeked_.loc;
  skipSpace();
  return locAt(pos_);
}

const Token &Lexer::peek() {
  if (!hasPeeked_) {
    peeked_ = lex();
    hasPeeked_ = true;
  }
  return peeked_;
}

Token Lexer::next() {
  if (hasPeeked_) {
    hasPeeked_ = false;
    return std::move(peeked_);
  }
  return lex();
}

Token Lexer::take(TokenKind kind, size_t start, size_t from) {
  Token token;
  token.loc = locAt(start);
  token.kind = kind;
  token.text = std::string(text_.substr(from, pos_ - from));
  return token;
}

void Lexer::skipIdentifier() {
  while (pos_ < text_.size() && isIdChar(text_[pos_]))
    ++pos_;
}

std::string Lexer::quotedString() {
  size_t open = pos_++;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    if (text_[pos_] == '\n')
      failAt(open, "string literal runs past the end of the line");
    pos_ += text_[pos_] == '\\' ? 2 : 1;
  }
  if (pos_ >= text_.size())
    failAt(open, "unterminated string literal");
  std::string value;
  if (!unescapeString(text_.substr(open + 1, pos_ - open - 1), value))
    failAt(open, "invalid escape in string literal");
  // Strings become names and attributes of a graph file: bytes JSON cannot
  // hold would make `import` fail after reading (exit 4, not bad input).
  if (firstInvalidUtf8(value) != std::string_view::npos)
    failAt(open, "string literal is not valid UTF-8 (a graph file is JSON text)");
  ++pos_;
  return value;
}

Token Lexer::lexSigilName(size_t start, char c) {
  ++pos_;
  TokenKind kind = c == '%'   ? TokenKind::PercentId
                   : c == '^' ? TokenKind::CaretId
                   : c == '#' ? TokenKind::HashId
                              : TokenKind::AtId;
  if (c == '@' && pos_ < text_.size() && text_[pos_] == '"') {
    Token token;
    token.loc = locAt(start);
    token.kind = kind;
    token.text = quotedString();
    return token;
  }
  size_t from = pos_;
  if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  } else if (pos_ < text_.size() && (isIdStart(text_[pos_]) || text_[pos_] == '$' ||
                                     text_[pos_] == '.' || text_[pos_] == '-')) {
    skipIdentifier();
  } else {
    failAt(start, std::string("expected a name after '") + c + "'");
  }
  // %x#1: one result of a multi-result op.
  if (c == '%' && pos_ + 1 < text_.size() && text_[pos_] == '#' &&
      std::isdigit(static_cast<unsigned char>(text_[pos_ + 1]))) {
    ++pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  return take(kind, start, from);
}

Token Lexer::lexNumber(size_t start) {
  if (text_[pos_] == '-')
    ++pos_;
  if (text_[pos_] == '0' && pos_ + 1 < text_.size() && text_[pos_ + 1] == 'x') {
    pos_ += 2;
    while (pos_ < text_.size() && hexValue(text_[pos_]) >= 0)
      ++pos_;
    return take(TokenKind::Integer, start, start);
  }
  while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
    ++pos_;
  if (pos_ >= text_.size() || text_[pos_] != '.')
    return take(TokenKind::Integer, start, start);
  ++pos_;
  while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
    ++pos_;
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    size_t mark = pos_++;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
      ++pos_;
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
    else
      pos_ = mark;
  }
  return take(TokenKind::Float, start, start);
}

Token Lexer::lex() {
  skipSpace();
  size_t start = pos_;
  if (pos_ >= text_.size()) {
    Token token;
    token.loc = locAt(start);
    return token; // End
  }
  char c = text_[pos_];
  if (isIdStart(c)) {
    skipIdentifier();
    return take(TokenKind::BareId, start, start);
  }
  if (c == '%' || c == '^' || c == '#' || c == '@')
    return lexSigilName(start, c);
  if (c == '"') {
    Token token;
    token.loc = locAt(start);
    token.kind = TokenKind::String;
    token.text = quotedString();
    return token;
  }
  bool negative = c == '-' && pos_ + 1 < text_.size() &&
                  std::isdigit(static_cast<unsigned char>(text_[pos_ + 1]));
  if (std::isdigit(static_cast<unsigned char>(c)) || negative)
    return lexNumber(start);
  if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
    pos_ += 2;
    return take(TokenKind::Punct, start, start);
  }
  if (std::string_view("()[]{}<>,:=?*+!").find(c) != std::string_view::npos) {
    ++pos_;
    return take(TokenKind::Punct, start, start);
  }
  char code[8];
  std::snprintf(code, sizeof code, "\\x%02x", static_cast<unsigned char>(c));
  failAt(start, std::string("unexpected character '") +
                    (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : code) + "'");
}

std::string Lexer::balancedUntilClose(char open, char close) {
  if (hasPeeked_) { // only whitespace was skipped by peeking: go back
    pos_ = 0;
    hasPeeked_ = false;
    failAt(0, "internal: balanced text after a peek");
  }
  size_t start = pos_;
  std::string stack(1, close);
  (void)open;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"')
        pos_ += text_[pos_] == '\\' ? 2 : 1;
    } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
      ++pos_; // an arrow, not a closing '>'
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      stack += c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>';
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (c != stack.back())
        failAt(pos_, std::string("unbalanced '") + c + "' (expected '" + stack.back() + "')");
      stack.pop_back();
      if (stack.empty()) {
        std::string body(text_.substr(start, pos_ - start));
        ++pos_;
        return body;
      }
    }
    ++pos_;
  }
  failAt(start, std::string("missing '") + close + "'");
}

} // namespace shardgen::mlir
