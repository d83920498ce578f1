#include "compiler/mlir/SourceLocations.h"

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/NestingLimit.h"
#include "compiler/mlir/MlirLexer.h"

namespace shardgen::mlir {

namespace {
const std::string kNone;
} // namespace

SourceLocations::SourceLocations(const std::vector<std::pair<std::string, std::string>> &aliases) {
  for (const auto &[name, body] : aliases)
    bodies_[name] = body;
}

std::string SourceLocations::of(const std::string &locText) const { return resolve(locText, 0); }

const std::string &SourceLocations::alias(const std::string &name, int depth) const {
  auto body = bodies_.find(name);
  if (body == bodies_.end())
    return kNone;
  auto [at, inserted] = resolved_.try_emplace(name);
  if (!inserted)
    return at->second ? *at->second : kNone; // resolved, or a cycle
  // A chain longer than any reader nests reads as no location: the
  // recursion stays bounded.
  std::string value = depth < kMaxNestingDepth ? resolve(body->second, depth + 1) : "";
  return *(resolved_[name] = std::move(value));
}

std::string SourceLocations::resolve(const std::string &locText, int depth) const {
  if (locText.empty())
    return "";
  Lexer lexer(locText);
  std::string firstName;
  try {
    while (lexer.peek().kind != TokenKind::End) {
      Token t = lexer.next();
      if (t.kind == TokenKind::String) {
        if (lexer.peek().isPunct(":")) {
          lexer.next();
          Token line = lexer.next();
          if (line.kind == TokenKind::Integer && lexer.peek().isPunct(":")) {
            lexer.next();
            Token column = lexer.next();
            return t.text + ":" + line.text + ":" + column.text;
          }
        }
        if (firstName.empty())
          firstName = t.text;
      } else if (t.kind == TokenKind::HashId) {
        const std::string &inner = alias(t.text, depth);
        if (!inner.empty() && inner.find(':') != std::string::npos)
          return inner;
        if (firstName.empty())
          firstName = inner;
      }
    }
  } catch (const GraphError &) {
    return ""; // a location we cannot read only loses the note
  }
  return firstName;
}

} // namespace shardgen::mlir
