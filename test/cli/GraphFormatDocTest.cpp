// docs/graph-format.md works as written: every complete graph in a ```json
// block passes `shardgen check` (or, after <!-- expect-error: POINTER:
// MESSAGE -->, fails with exactly that), fragments are valid JSON, and each
// ```text block after <!-- shardgen show: ARGS --> is part of what
// `shardgen show` prints for the graph before it. The docs' relative links
// stay inside the repository.

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;
namespace fs = std::filesystem;

static const std::string kRoot = SHARDGEN_SOURCE_DIR;

TEST_CASE("docs/graph-format.md: every example graph is checked as written") {
  std::string doc = readFile(kRoot + "/docs/graph-format.md");
  REQUIRE(!doc.empty());
  std::string dir = makeTempDir();
  std::regex block(
      R"((?:<!-- (expect-error|shardgen show): (.*?) -->\n)?```(json|text)\n([\s\S]*?)```)");
  int graphs = 0, errors = 0, fragments = 0, shows = 0;
  std::string lastGraph;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), block); it != std::sregex_iterator();
       ++it) {
    std::string directive = (*it)[1], argument = (*it)[2], kind = (*it)[3], body = (*it)[4];
    INFO(body);
    if (kind == "text") {
      if (directive != "shardgen show")
        continue;
      REQUIRE(!lastGraph.empty());
      ToolResult shown = runShardgen("show '" + lastGraph + "' " + argument);
      INFO(shown.out, shown.err);
      CHECK(shown.exitCode == 0);
      CHECK(shown.out.find(body) != std::string::npos);
      ++shows;
      continue;
    }
    if (body.find("\"format\": \"shardgen-graph\"") == std::string::npos) {
      nlohmann::json parsed;
      CHECK_NOTHROW(parsed = nlohmann::json::parse(body));
      ++fragments;
      continue;
    }
    std::string path = dir + "/graph" + std::to_string(graphs + errors) + ".json";
    writeFile(path, body);
    ToolResult result = runShardgen("check '" + path + "'");
    if (directive == "expect-error") {
      CHECK(result.exitCode == 1);
      CHECK(result.err == path + ":" + argument.substr(0, argument.find(": ")) +
                              ": error: " + argument.substr(argument.find(": ") + 2) + "\n");
      ++errors;
    } else {
      INFO(result.err);
      CHECK(result.exitCode == 0);
      CHECK(result.out.rfind(path + ": ok (", 0) == 0);
      lastGraph = path;
      ++graphs;
    }
  }
  CHECK(graphs >= 8);
  CHECK(errors >= 1);
  CHECK(fragments >= 1);
  CHECK(shows >= 2);
}

TEST_CASE("README and docs link only to files inside the repository") {
  std::vector<fs::path> pages = {kRoot + "/README.md"};
  for (const auto &entry : fs::directory_iterator(kRoot + "/docs"))
    if (entry.path().extension() == ".md")
      pages.push_back(entry.path());
  std::regex link(R"(\]\(([^)#\s]+)(?:#[^)]*)?\))");
  fs::path root = fs::canonical(kRoot);
  int checked = 0;
  for (const auto &page : pages) {
    std::string text = readFile(page.string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link);
         it != std::sregex_iterator(); ++it) {
      std::string target = (*it)[1];
      if (target.find("://") != std::string::npos)
        continue;
      fs::path resolved = fs::weakly_canonical(page.parent_path() / target);
      INFO(page.string(), " -> ", target);
      CHECK(fs::exists(resolved));
      auto [rootEnd, _] = std::mismatch(root.begin(), root.end(), resolved.begin(), resolved.end());
      CHECK(rootEnd == root.end());
      ++checked;
    }
  }
  CHECK(checked >= 2);
}
