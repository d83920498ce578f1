#include "compiler/codegen/TemplateText.h"

#include <optional>

#include "compiler/codegen/CodeWriter.h"
#include "compiler/ir/InternalError.h"

namespace shardgen::codegen {

static const std::string &valueOf(const std::map<std::string, std::string> &values,
                                  const std::string &name) {
  auto it = values.find(name);
  if (it == values.end())
    internalError(__FILE__, __LINE__, "template placeholder @@" + name + "@@ has no value");
  return it->second;
}

namespace {

/// Walks `text`, calling `literal(text)` for template text and
/// `placeholder(value, indent)` for each placeholder (`indent`: the
/// whole-line placeholder's indent, nullopt for an inline one).
template <typename Literal, typename Placeholder>
void walkTemplate(std::string_view text, const std::map<std::string, std::string> &values,
                  Literal literal, Placeholder placeholder) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
    start = end == std::string_view::npos ? text.size() : end + 1;
    // A whole-line placeholder: "<indent>// @@NAME@@".
    size_t first = line.find_first_not_of(' ');
    if (first != std::string_view::npos && line.substr(first).starts_with("// @@") &&
        line.ends_with("@@") && line.size() > first + 7) {
      std::string name(line.substr(first + 5, line.size() - first - 7));
      placeholder(valueOf(values, name), std::optional(line.substr(0, first)));
      continue;
    }
    // Inline placeholders.
    size_t at = 0;
    while (true) {
      size_t open = line.find("@@", at);
      size_t close = open == std::string_view::npos ? open : line.find("@@", open + 2);
      if (close == std::string_view::npos) {
        literal(line.substr(at));
        break;
      }
      literal(line.substr(at, open - at));
      placeholder(valueOf(values, std::string(line.substr(open + 2, close - open - 2))),
                  std::optional<std::string_view>());
      at = close + 2;
    }
    if (end != std::string_view::npos)
      literal("\n");
  }
}

} // namespace

std::string fillTemplate(std::string_view text, const std::map<std::string, std::string> &values) {
  // Sized first, then written in place: the values hold the whole program
  // (hundreds of MB on large graphs), so growing by doubling or indenting
  // into temporaries would copy it several times.
  size_t size = 0;
  walkTemplate(
      text, values, [&](std::string_view literal) { size += literal.size(); },
      [&](const std::string &value, std::optional<std::string_view> indent) {
        size += indent ? indentedSize(value, indent->size()) : value.size();
      });
  std::string out;
  out.reserve(size);
  walkTemplate(
      text, values, [&](std::string_view literal) { out.append(literal); },
      [&](const std::string &value, std::optional<std::string_view> indent) {
        if (indent)
          appendIndented(out, value, *indent);
        else
          out += value;
      });
  return out;
}

} // namespace shardgen::codegen
