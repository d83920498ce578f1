#pragma once
// The one writer of generated C++ text. Emitters write lines into a
// CodeWriter; scopes (RAII) indent what is written inside them and close
// their braces, so nesting in the emitter is nesting in the output and no
// emitter counts spaces. Internal to compiler/codegen.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/TensorType.h"

namespace shardgen::codegen {

class CodeWriter {
public:
  /// Indents what is written while it lives; closes with `close` (if any)
  /// at the opening's indent when it ends.
  class [[nodiscard]] Scope {
  public:
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
    Scope(Scope &&other) noexcept;
    Scope &operator=(Scope &&) = delete;
    ~Scope();

  private:
    friend class CodeWriter;
    Scope(CodeWriter *writer, std::string close) : writer(writer), close(std::move(close)) {}
    CodeWriter *writer;
    std::string close;
  };

  /// Appends `text` (one or more lines; a trailing newline is optional) at
  /// the current indent; lines keep their own relative indent, empty lines
  /// stay empty.
  CodeWriter &lines(std::string_view text);
  /// "`head` {" (just "{" for an empty head), then an indented scope that
  /// ends with `close`.
  Scope block(std::string_view head = "", std::string_view close = "}");
  /// An indented scope with no braces.
  Scope indent();

  bool empty() const { return text.empty(); }
  const std::string &str() const { return text; }
  /// The text written so far; the writer is empty afterwards.
  std::string take();

private:
  std::string text;
  int depth = 0;
};

/// `code` with every non-empty line indented by `indent` spaces.
std::string indented(std::string_view code, std::string_view indent);
/// Appends indented(code, indent) to `out`, without the copy.
void appendIndented(std::string &out, std::string_view code, std::string_view indent);
/// The size of indented(code, indent) for an indent of `indent` characters.
size_t indentedSize(std::string_view code, size_t indent);
std::string indented(std::string_view code, int indent);

/// Decimal text of `value`.
inline std::string str(int64_t value) { return std::to_string(value); }

/// "a, b, c" (the IR's, for the emitters).
using shardgen::joinInts;

} // namespace shardgen::codegen
