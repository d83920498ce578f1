#include "compiler/codegen/TemplateText.h"

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

std::string fillTemplate(std::string_view text, const std::map<std::string, std::string> &values) {
  std::string out;
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
      out += indented(valueOf(values, name), line.substr(0, first));
      continue;
    }
    // Inline placeholders.
    size_t at = 0;
    while (true) {
      size_t open = line.find("@@", at);
      size_t close = open == std::string_view::npos ? open : line.find("@@", open + 2);
      if (close == std::string_view::npos) {
        out.append(line.substr(at));
        break;
      }
      out.append(line.substr(at, open - at));
      out += valueOf(values, std::string(line.substr(open + 2, close - open - 2)));
      at = close + 2;
    }
    if (end != std::string_view::npos)
      out += '\n';
  }
  return out;
}

} // namespace shardgen::codegen
