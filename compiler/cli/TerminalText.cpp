#include "compiler/cli/TerminalText.h"

#include <algorithm>

#include "compiler/ir/Diagnostic.h"

namespace shardgen::cli {

std::string printable(std::string_view text) { return escapedText(text); }

std::string printableLines(std::string_view text) {
  std::string out;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    out += printable(text.substr(start, end - start));
    if (end < text.size())
      out += '\n';
    start = end + 1;
  }
  return out;
}

} // namespace shardgen::cli
