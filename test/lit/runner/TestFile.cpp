#include "test/lit/runner/TestFile.h"

#include <cctype>
#include <regex>

namespace shardgen::lit {

namespace {

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      if (start < text.size())
        lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string trimmed(const std::string &text) {
  size_t first = text.find_first_not_of(" \t");
  size_t last = text.find_last_not_of(" \t");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

bool isSplitMarker(const std::string &line) {
  static const std::regex marker(R"(^\s*// -----\s*$)");
  return std::regex_match(line, marker);
}

/// A top-level operation of a chunk, by lines (inclusive).
struct Item {
  int first = 0, last = 0;
  bool isFunction = false, isPrivate = false;
  std::string name;
};

/// Walks a chunk's text as MLIR's top level: operations separated by
/// comments and space. Brackets nest; strings and `//` comments hide them.
class TopLevelScanner {
public:
  TopLevelScanner(const std::vector<std::string> &lines, int first, int last)
      : lines_(lines), line_(first), last_(last) {}

  std::vector<Item> scan() {
    std::vector<Item> items;
    while (skipSpaceAndComments()) {
      Item item;
      item.first = line_;
      std::string rest = lines_[line_].substr(col_);
      item.isFunction = rest.rfind("func.func", 0) == 0;
      if (item.isFunction)
        nameFunction(rest, item);
      consumeItem(item.isFunction);
      item.last = line_;
      // The item ends on line_; whatever follows on that line is not an item.
      ++line_;
      col_ = 0;
      items.push_back(item);
    }
    return items;
  }

private:
  static void nameFunction(const std::string &header, Item &item) {
    static const std::regex pattern(
        R"(^func\.func\s+(?:(public|private|nested)\s+)?@("(?:[^"\\]|\\.)*"|[\w$.-]+))");
    std::smatch m;
    if (std::regex_search(header, m, pattern)) {
      item.isPrivate = m[1] == "private";
      item.name = m[2];
      if (item.name.size() >= 2 && item.name.front() == '"')
        item.name = item.name.substr(1, item.name.size() - 2);
    }
  }

  bool atEnd() const { return line_ > last_; }
  char peek() const {
    const std::string &line = lines_[line_];
    return col_ < line.size() ? line[col_] : '\n';
  }
  void step() {
    if (col_ < lines_[line_].size()) {
      ++col_;
    } else {
      ++line_;
      col_ = 0;
    }
  }
  bool atComment() const { return lines_[line_].compare(col_, 2, "//") == 0; }

  /// Moves to the next significant character; false at the chunk's end.
  bool skipSpaceAndComments() {
    while (!atEnd()) {
      if (atComment()) {
        ++line_;
        col_ = 0;
      } else if (std::isspace(static_cast<unsigned char>(peek()))) {
        step();
      } else {
        return true;
      }
    }
    return false;
  }

  /// Past one operation: to the end of its line at depth 0 for a
  /// declaration; for a function, to the `}` closing its body (an
  /// `attributes {...}` dictionary is followed by the body's `{`).
  void consumeItem(bool function) {
    int depth = 0;
    while (!atEnd()) {
      if (atComment()) {
        col_ = lines_[line_].size();
      }
      char c = peek();
      if (c == '\n') {
        if (depth == 0 && !function)
          return;
        step();
        continue;
      }
      if (c == '"') {
        skipString();
        continue;
      }
      step();
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if ((c == ')' || c == ']' || c == '}') && depth > 0 && --depth == 0 && c == '}' &&
                 function) {
        int endLine = line_;
        size_t endCol = col_;
        bool bodyFollows = skipSpaceAndComments() && peek() == '{';
        line_ = endLine;
        col_ = endCol;
        if (!bodyFollows)
          return;
      }
    }
    line_ = last_;
  }

  void skipString() {
    step(); // the opening quote
    while (!atEnd() && peek() != '"' && peek() != '\n') {
      if (peek() == '\\')
        step();
      step();
    }
    if (!atEnd() && peek() == '"')
      step();
  }

  const std::vector<std::string> &lines_;
  int line_;
  size_t col_ = 0;
  int last_;
};

std::string joinSelected(const std::vector<std::string> &lines, const std::vector<bool> &keep) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i)
    out += (keep[i] ? lines[i] : "") + "\n";
  return out;
}

std::vector<TestCase> casesOfChunk(const std::vector<std::string> &lines, int first, int last) {
  std::vector<Item> items = TopLevelScanner(lines, first, last).scan();
  std::vector<bool> shared(lines.size(), false); // declarations and private functions
  for (const Item &item : items)
    if (!item.isFunction || item.isPrivate)
      for (int l = item.first; l <= item.last; ++l)
        shared[l] = true;
  std::vector<const Item *> publicFunctions;
  for (const Item &item : items)
    if (item.isFunction && !item.isPrivate)
      publicFunctions.push_back(&item);
  std::vector<TestCase> cases;
  if (publicFunctions.empty() && !items.empty()) {
    // No function at the top level (a `module { ... }`): the part is one
    // case, its entry chosen as shardgen chooses it.
    std::vector<bool> whole(lines.size(), false);
    for (int l = first; l <= last; ++l)
      whole[l] = true;
    std::string text = joinSelected(lines, whole);
    cases.push_back({"module", text, text, items.front().first + 1});
    return cases;
  }
  int regionStart = first;
  for (size_t k = 0; k < publicFunctions.size(); ++k) {
    const Item &fn = *publicFunctions[k];
    std::vector<bool> input = shared;
    for (int l = fn.first; l <= fn.last; ++l)
      input[l] = true;
    int regionEnd = k + 1 == publicFunctions.size() ? last : fn.last;
    std::vector<bool> checks(lines.size(), false);
    for (int l = regionStart; l <= regionEnd; ++l)
      checks[l] = true;
    cases.push_back(
        {fn.name, joinSelected(lines, input), joinSelected(lines, checks), fn.first + 1});
    regionStart = fn.last + 1;
  }
  return cases;
}

} // namespace

std::vector<std::string> runLinesOf(const std::string &text) {
  static const std::regex run(R"(^\s*//\s*RUN:\s?(.*)$)");
  std::vector<std::string> runs;
  bool continued = false;
  for (const std::string &line : splitLines(text)) {
    std::smatch m;
    if (!std::regex_match(line, m, run)) {
      continued = false;
      continue;
    }
    std::string command = trimmed(m[1]);
    bool continues = !command.empty() && command.back() == '\\';
    if (continues)
      command = trimmed(command.substr(0, command.size() - 1));
    if (continued)
      runs.back() += " " + command;
    else
      runs.push_back(command);
    continued = continues;
  }
  return runs;
}

TestFile readTestFile(const std::string &text, bool split) {
  TestFile file;
  file.runLines = runLinesOf(text);
  std::vector<std::string> lines = splitLines(text);
  int first = 0;
  for (int l = 0; l <= static_cast<int>(lines.size()); ++l) {
    bool end = l == static_cast<int>(lines.size());
    if (!end && !(split && isSplitMarker(lines[l])))
      continue;
    if (l > first)
      file.chunks.push_back(casesOfChunk(lines, first, l - 1));
    first = l + 1;
  }
  return file;
}

} // namespace shardgen::lit
