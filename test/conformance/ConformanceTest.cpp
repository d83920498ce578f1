// Shardy's own propagation tests, translated (test/conformance/cases/FILE/
// FUNCTION.json: the graph, the strategy of the source's RUN line, and the
// shardings its CHECK lines expect, each at a JSON pointer of the propagated
// graph). Every case must pass unless it is listed in KNOWN_FAILURES.md with
// its reason; a listed case that passes fails the suite too, so the list
// only shrinks. SKIPPED.md lists the source functions not translated.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Sharding.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/propagate/ShardingRules.h"
#include "compiler/verify/Verifier.h"
#include "test/support/TextFile.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace shardgen;
using testing::readFile;

namespace {

const fs::path kRoot = fs::path(SHARDGEN_SOURCE_DIR) / "test" / "conformance";

/// Table rows `| FILE/FUNCTION | reason |` of a checked-in list.
std::map<std::string, std::string> readList(const fs::path &path) {
  std::map<std::string, std::string> rows;
  std::ifstream in(path);
  static const std::regex row(R"(^\|\s*`?([\w.-]+/[\w.#-]+)`?\s*\|\s*(.*?)\s*\|\s*$)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, row))
      rows[m[1]] = m[2];
  }
  return rows;
}

/// What Shardy's CHECK lines pin: per dim the axes, and the unreduced axes.
/// Open/closed and priorities are not compared (Shardy keeps the user's
/// open dims open; shardgen writes every sharding closed). With no axes at
/// all the mesh is not compared either (an unsharded value has none).
std::string comparable(const std::optional<TensorSharding> &sharding) {
  if (!sharding)
    return "replicated";
  TensorSharding s = *sharding;
  s.replicated.clear();
  bool any = !s.unreduced.empty();
  for (auto &dim : s.dims) {
    dim.isClosed = true;
    dim.priority.reset();
    any = any || !dim.axes.empty();
  }
  return any ? printSharding(s) : "replicated";
}

std::optional<TensorSharding> parseExpected(const json &value) {
  if (value.is_null())
    return std::nullopt;
  std::string error;
  auto parsed = parseSharding(value.get<std::string>(), &error);
  if (!parsed)
    throw std::runtime_error("bad expected sharding " + value.dump() + ": " + error);
  return parsed;
}

/// The op at a pointer `/ops/K` of the graph's top level.
const Op &opAt(const Graph &graph, const std::string &at) {
  size_t index = std::stoul(at.substr(at.rfind('/') + 1));
  return graph.main.ops.at(index);
}

/// Shardy gives size-1 dims factors of size 1; shardgen maps them to no
/// factor (nothing can shard them). Rules are compared without those
/// factors, the rest renumbered in order. Size-0 factors are compared: both
/// have them.
OpShardingRule withoutUnitFactors(const OpShardingRule &rule) {
  std::vector<int64_t> renumbered(rule.factorSizes.size(), -1);
  OpShardingRule out;
  for (size_t f = 0; f < rule.factorSizes.size(); ++f) {
    if (rule.factorSizes[f] == 1)
      continue;
    renumbered[f] = out.numFactors();
    out.factorSizes.push_back(rule.factorSizes[f]);
    out.factorKinds.push_back(rule.factorKinds[f]);
  }
  for (int64_t f : rule.blockedFactors)
    if (renumbered[f] >= 0)
      out.blockedFactors.push_back(renumbered[f]);
  auto mapTensors = [&](const std::vector<OpShardingRule::TensorFactors> &tensors) {
    std::vector<OpShardingRule::TensorFactors> mapped;
    for (const auto &dims : tensors) {
      mapped.emplace_back();
      for (const auto &factors : dims) {
        mapped.back().emplace_back();
        for (int64_t f : factors)
          if (renumbered[f] >= 0)
            mapped.back().back().push_back(renumbered[f]);
      }
    }
    return mapped;
  };
  out.operands = mapTensors(rule.operands);
  out.results = mapTensors(rule.results);
  return out;
}

/// A rule case (from op_sharding_rule_registry.mlir): each op's rule, printed
/// as Shardy prints it; `"rule": null` when Shardy gives the op none.
std::vector<std::string> runRuleCase(const json &testCase) {
  std::vector<std::string> mismatches;
  try {
    Graph graph = readGraph(testCase.at("graph").dump());
    verifyGraph(graph);
    for (const auto &expect : testCase.at("rules")) {
      const std::string at = expect.at("at").get<std::string>();
      const Op &op = opAt(graph, at);
      if (expect.at("rule").is_null() || !hasShardingRule(graph, op)) {
        if (expect.at("rule").is_null() != !hasShardingRule(graph, op))
          mismatches.push_back(at + (hasShardingRule(graph, op) ? ": expected no rule, got one"
                                                                : ": expected a rule, got none"));
        continue;
      }
      std::string got = printOpShardingRule(withoutUnitFactors(shardingRuleFor(graph, op)));
      std::string error;
      auto expected = parseOpShardingRule(expect.at("rule").get<std::string>(), &error);
      if (!expected)
        throw std::runtime_error(at + ": bad expected rule: " + error);
      std::string want = printOpShardingRule(withoutUnitFactors(*expected));
      if (got != want)
        mismatches.push_back(at + ": expected " + want + ", got " + got);
    }
  } catch (const GraphError &e) {
    return {std::string("error: ") + e.what()};
  }
  return mismatches;
}

/// The graph propagated and written back as JSON.
json propagateWritten(const json &graph, PropagationStrategy strategy) {
  Graph parsed = readGraph(graph.dump());
  verifyGraph(parsed);
  PropagationResult result = propagateShardings(parsed, strategy);
  applyPropagation(parsed, result);
  return json::parse(writeGraph(parsed));
}

std::optional<TensorSharding> shardingAt(const json &written, const std::string &at) {
  const json::json_pointer pointer(at);
  if (!written.contains(pointer))
    return std::nullopt;
  std::string error;
  return parseSharding(written.at(pointer).get<std::string>(), &error);
}

/// The names an op reads: its operands, and those its control-flow regions
/// read from outside them.
std::vector<std::string> readNames(const json &op) {
  std::vector<std::string> reads;
  for (const auto &name : op.value("operands", json::array()))
    reads.push_back(name.get<std::string>());
  std::set<std::string> inner;
  std::function<void(const json &)> region = [&](const json &body) {
    for (const auto &arg : body.value("args", json::array()))
      inner.insert(arg.at("name").get<std::string>());
    for (const auto &nested : body.value("ops", json::array())) {
      for (const std::string &name : readNames(nested))
        if (!inner.count(name))
          reads.push_back(name);
      if (nested.contains("result"))
        inner.insert(nested["result"].get<std::string>());
      for (const auto &name : nested.value("results", json::array()))
        inner.insert(name.get<std::string>());
    }
    for (const auto &name : body.value("return", json::array()))
      if (!inner.count(name.get<std::string>()))
        reads.push_back(name.get<std::string>());
  };
  for (const char *key : {"cond", "body", "true_branch", "false_branch"})
    if (op.value("op", "") != "manual_computation" && op.contains(key) && op[key].is_object())
      region(op[key]);
  for (const auto &branch : op.value("branches", json::array()))
    region(branch);
  return reads;
}

/// The graph with its top-level ops in another topological order (each step
/// takes the last op in file order whose operands are defined), and each
/// op's new index. Shardy's result may depend on op order; shardgen's never
/// does, so every case must give the same shardings both ways.
std::pair<json, std::vector<size_t>> reordered(const json &graph) {
  const json &ops = graph.at("ops");
  std::set<std::string> defined;
  for (const auto &input : graph.at("inputs"))
    defined.insert(input.at("name").get<std::string>());
  std::vector<size_t> newIndex(ops.size(), ops.size());
  json out = graph;
  out["ops"] = json::array();
  auto ready = [&](const json &op) {
    std::vector<std::string> reads = readNames(op);
    return std::all_of(reads.begin(), reads.end(),
                       [&](const std::string &name) { return defined.count(name); });
  };
  for (size_t placed = 0; placed < ops.size(); ++placed) {
    size_t i = ops.size();
    for (size_t k = ops.size(); k > 0 && i == ops.size(); --k)
      if (newIndex[k - 1] == ops.size() && ready(ops[k - 1]))
        i = k - 1;
    if (i == ops.size())
      return {graph, {}}; // not a topological file: keep it as it is
    newIndex[i] = placed;
    out["ops"].push_back(ops[i]);
    if (ops[i].contains("result"))
      defined.insert(ops[i]["result"].get<std::string>());
    for (const auto &name : ops[i].value("results", json::array()))
      defined.insert(name.get<std::string>());
  }
  return {out, newIndex};
}

/// `/ops/K...` with K the op's index after reordering.
std::string reorderedPointer(const std::string &at, const std::vector<size_t> &newIndex) {
  if (at.rfind("/ops/", 0) != 0 || newIndex.empty())
    return at;
  size_t end = at.find('/', 5);
  size_t k = std::stoul(at.substr(5, end - 5));
  return "/ops/" + std::to_string(newIndex.at(k)) +
         (end == std::string::npos ? "" : at.substr(end));
}

/// Runs one case; returns the mismatches (empty: it passes): against the
/// CHECK lines, and against the same graph with its ops reordered.
std::vector<std::string> runCase(const json &testCase) {
  if (testCase.contains("rules"))
    return runRuleCase(testCase);
  auto strategy = parseStrategy(testCase.at("strategy").get<std::string>());
  if (!strategy)
    throw std::runtime_error("unknown strategy");
  std::vector<std::string> mismatches;
  json written, writtenReordered;
  auto [reorderedGraph, newIndex] = reordered(testCase.at("graph"));
  try {
    written = propagateWritten(testCase.at("graph"), *strategy);
    writtenReordered = propagateWritten(reorderedGraph, *strategy);
  } catch (const GraphError &e) {
    return {std::string("error: ") + e.what()};
  }
  for (const auto &expect : testCase.at("expect")) {
    const std::string at = expect.at("at").get<std::string>();
    std::string want = comparable(parseExpected(expect.at("sharding")));
    std::string got = comparable(shardingAt(written, at));
    if (want != got)
      mismatches.push_back(at + ": expected " + want + ", got " + got);
    std::string gotReordered =
        comparable(shardingAt(writtenReordered, reorderedPointer(at, newIndex)));
    if (gotReordered != got)
      mismatches.push_back(at + ": with the ops reordered " + gotReordered + ", else " + got);
  }
  return mismatches;
}

} // namespace

TEST_CASE("Shardy's propagation tests, translated") {
  const auto known = readList(kRoot / "KNOWN_FAILURES.md");
  const auto skipped = readList(kRoot / "SKIPPED.md");
  std::vector<fs::path> files;
  for (const auto &entry : fs::recursive_directory_iterator(kRoot / "cases"))
    if (entry.path().extension() == ".json")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());

  int passing = 0, failingAsKnown = 0;
  std::set<std::string> seen;
  for (const auto &path : files) {
    const std::string id = path.parent_path().filename().string() + "/" + path.stem().string();
    seen.insert(id);
    json testCase = json::parse(readFile(path));
    REQUIRE_MESSAGE(testCase.contains("_source"), id);
    std::vector<std::string> mismatches = runCase(testCase);
    const bool isKnown = known.count(id) > 0;
    if (mismatches.empty()) {
      ++passing;
      CHECK_MESSAGE(!isKnown, id << " passes: remove it from KNOWN_FAILURES.md");
      continue;
    }
    if (isKnown) {
      ++failingAsKnown;
      continue;
    }
    std::string all;
    for (const auto &m : mismatches)
      all += "\n  " + m;
    FAIL_CHECK(id << " (" << testCase["_source"].get<std::string>() << ") differs:" << all);
  }
  for (const auto &[id, reason] : known)
    CHECK_MESSAGE(seen.count(id), "KNOWN_FAILURES.md lists " << id << ", which has no case");

  std::printf("conformance: %zu translated, %d passing, %d known failures, %zu skipped\n",
              files.size(), passing, failingAsKnown, skipped.size());
  for (const auto &[id, reason] : known)
    std::printf("  known failure %s: %s\n", id.c_str(), reason.c_str());
  for (const auto &[id, reason] : skipped)
    std::printf("  skipped %s: %s\n", id.c_str(), reason.c_str());
}
