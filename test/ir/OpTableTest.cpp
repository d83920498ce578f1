// The op table (compiler/ops/Ops.def): every OpKind has a complete row, and
// no switch over ops in compiler/ has a `default:` (a new op would silently
// take it). The stages'
// columns (type rule, sharding rule, kernel, bound, emitter, partition hook)
// are checked when they are built: a row naming a function a stage lacks
// does not build.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "compiler/ops/OpTable.h"

using namespace shardgen;
namespace fs = std::filesystem;

TEST_CASE("every op kind has a complete row") {
  std::set<std::string_view> names;
  for (OpKind kind : kAllOpKinds) {
    const OpRow &row = opRow(kind);
    INFO(opName(kind));
    CHECK(row.kind == kind);
    CHECK(row.name == opName(kind));
    CHECK(!row.name.empty());
    CHECK(names.insert(row.name).second); // one row per name
    CHECK((row.schema != nullptr));
    CHECK((row.emptyAttributes != nullptr));
    // The schema's keys are the attribute keys the readers take.
    CHECK(attributeKeys(kind).size() == row.schema().size());
    // An op with an MLIR form has its dialect's name.
    if (row.dialect != MlirDialect::None)
      CHECK(mlirOpName(kind).ends_with("." + std::string(row.name)));
    else
      CHECK(mlirOpName(kind).empty());
  }
  CHECK(names.size() == kNumOpKinds);
}

namespace {

/// "file:line" of each switch in compiler/ whose cases name OpKinds and that
/// has a `default:` (a new op would silently take it).
std::set<std::string> opSwitchesWithDefault() {
  std::set<std::string> found;
  const fs::path root = fs::path(SHARDGEN_SOURCE_DIR) / "compiler";
  const std::regex opening(R"(switch\s*\([^)]*\)\s*\{)");
  for (const auto &entry : fs::recursive_directory_iterator(root)) {
    const std::string extension = entry.path().extension().string();
    if (extension != ".cpp" && extension != ".h")
      continue;
    std::ifstream in(entry.path());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), opening);
         it != std::sregex_iterator(); ++it) {
      size_t end = static_cast<size_t>(it->position() + it->length());
      size_t at = end;
      for (int depth = 1; depth > 0 && at < text.size(); ++at)
        depth += text[at] == '{' ? 1 : text[at] == '}' ? -1 : 0;
      const std::string body = text.substr(end, at - end);
      if (body.find("case OpKind::") == std::string::npos ||
          !std::regex_search(body, std::regex(R"(\bdefault\s*:)")))
        continue;
      const auto line = std::count(text.begin(), text.begin() + it->position(), '\n') + 1;
      found.insert(fs::relative(entry.path(), root.parent_path()).string() + ":" +
                   std::to_string(line));
    }
  }
  return found;
}

} // namespace

TEST_CASE("no op switch with a default") {
  // Issue 23's goal, reached: every stage chooses per op through the rows,
  // so none is left, and a new one fails here.
  const std::set<std::string> found = opSwitchesWithDefault();
  for (const std::string &place : found)
    MESSAGE("an op switch with a default at " << place);
  CHECK(found.empty());
}
