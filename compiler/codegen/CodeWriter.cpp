#include "compiler/codegen/CodeWriter.h"

#include <utility>

#include "compiler/ir/InternalError.h"

namespace shardgen::codegen {

namespace {
constexpr int kIndentWidth = 2;
} // namespace

size_t indentedSize(std::string_view code, size_t indent) {
  size_t size = 0;
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string_view::npos)
      end = code.size();
    size += (end > start ? indent + (end - start) : 0) + 1;
    start = end + 1;
  }
  return size;
}

void appendIndented(std::string &out, std::string_view code, std::string_view indent) {
  // Appended in place: the program's text is hundreds of MB on large graphs,
  // and a temporary copy per appended piece doubled generation's memory.
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string_view::npos)
      end = code.size();
    if (end > start)
      out.append(indent).append(code.substr(start, end - start));
    out += '\n';
    start = end + 1;
  }
}

std::string indented(std::string_view code, std::string_view indent) {
  std::string out;
  out.reserve(indentedSize(code, indent.size()));
  appendIndented(out, code, indent);
  return out;
}

std::string indented(std::string_view code, int indent) {
  return indented(code, std::string(static_cast<size_t>(indent), ' '));
}

CodeWriter &CodeWriter::lines(std::string_view text) {
  // No allocation per call: the indent is a prefix of a run of spaces.
  static constexpr std::string_view kSpaces = "                                                  "
                                              "                                                  ";
  const size_t width = static_cast<size_t>(depth) * kIndentWidth;
  if (width <= kSpaces.size())
    appendIndented(this->text, text, kSpaces.substr(0, width));
  else
    appendIndented(this->text, text, std::string(width, ' '));
  return *this;
}

CodeWriter::Scope CodeWriter::block(std::string_view head, std::string_view close) {
  lines(head.empty() ? std::string("{") : std::string(head) + " {");
  ++depth;
  return Scope(this, std::string(close));
}

CodeWriter::Scope CodeWriter::indent() {
  ++depth;
  return Scope(this, "");
}

std::string CodeWriter::take() {
  if (depth != 0) // a scope still open would close into the next text
    internalError(__FILE__, __LINE__, "CodeWriter::take() inside an open scope");
  std::string out;
  std::swap(out, text);
  return out;
}

CodeWriter::Scope::Scope(Scope &&other) noexcept
    : writer(other.writer), close(std::move(other.close)) {
  other.writer = nullptr;
}

CodeWriter::Scope::~Scope() {
  if (!writer)
    return;
  --writer->depth;
  if (!close.empty())
    writer->lines(close);
}

} // namespace shardgen::codegen
