// Mutation fuzzing of the samples: seeded structural mutations of
// samples/*.json (keys deleted or duplicated, numbers made 0, -1 or huge,
// values of another type, operands renamed, sharding and type strings
// corrupted, array elements dropped or repeated), each run through
// `shardgen check` and `shardgen propagate` (and a few through `run
// --verify-spmd`). Every outcome is success (exit 0) or one well-formed
// diagnostic line `FILE:/pointer: error: message` with exit 1 and nothing on
// stdout: never an internal error (exit 4), never a signal. The MLIR
// samples (samples/mlir/*.mlir) get text mutations (lines dropped or
// repeated, numbers and names changed, brackets and quotes put in, #loc
// aliases naming themselves, calls of main, deep metadata) through `check`
// and `import`, with `FILE:LINE:COLUMN: error: message`; every run has a
// time limit the harness enforces, so a hang fails too.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <vector>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMutants = 200;     // over all samples; SHARDGEN_MUTANTS overrides
constexpr int kMlirMutants = 100; // over the MLIR samples; SHARDGEN_MLIR_MUTANTS overrides
constexpr int kRunEvery = 40;     // every 40th mutant is also `run`
constexpr int kMaxMutations = 3;  // per mutant

/// Every node of the document by JSON pointer (the root excluded).
void collectPointers(const json &node, const json::json_pointer &at,
                     std::vector<json::json_pointer> &out) {
  if (node.is_object())
    for (auto it = node.begin(); it != node.end(); ++it) {
      out.push_back(at / it.key());
      collectPointers(it.value(), at / it.key(), out);
    }
  else if (node.is_array())
    for (size_t i = 0; i < node.size(); ++i) {
      out.push_back(at / i);
      collectPointers(node[i], at / i, out);
    }
}

/// Names of the graph's values, for renaming operands into existing ones.
std::vector<std::string> valueNames(const json &graph) {
  std::vector<std::string> names = {"nope", ""};
  for (const char *list : {"inputs", "ops"})
    if (graph.contains(list) && graph[list].is_array())
      for (const json &entry : graph[list])
        for (const char *key : {"name", "result"})
          if (entry.is_object() && entry.contains(key) && entry[key].is_string())
            names.push_back(entry[key]);
  return names;
}

/// The axis names the samples use.
const std::regex &axisName() {
  static const std::regex names("\\b(data|model|a|b)\\b");
  return names;
}

class Mutator {
public:
  explicit Mutator(uint64_t seed) : random_(seed) {}

  /// Mutates `graph`; returns the text to write (duplicate keys only exist
  /// in text, so they are spliced into the dump).
  std::string mutate(json graph) {
    std::string duplicateKey;
    int mutations = 1 + pick(kMaxMutations);
    for (int m = 0; m < mutations; ++m) {
      std::vector<json::json_pointer> pointers;
      collectPointers(graph, json::json_pointer(), pointers);
      if (pointers.empty())
        break;
      json::json_pointer at = pointers[pick(pointers.size())];
      json &node = graph[at];
      json &parent = graph[at.parent_pointer()];
      switch (pick(9)) {
      case 0: // delete the key or element
        if (parent.is_object())
          parent.erase(at.back());
        else
          parent.erase(parent.begin() + std::stol(at.back()));
        break;
      case 1: // repeat an array element, or duplicate an object key
        if (json copy = node; parent.is_array())
          parent.insert(parent.begin() + std::stol(at.back()), copy);
        else if (duplicateKey.empty()) {
          duplicateKey = at.back();
          parent["\x01"
                 "duplicate"] = pick(2) ? copy : json(7);
        }
        break;
      case 2: // a number made 0, -1, huge or fractional
        node = pickOf<json>(
            {0, -1, 1, 4294967296LL, 9223372036854775807LL, -9223372036854775807LL, 1e300, 0.5});
        break;
      case 3: // a value of another type
        node = pickOf<json>({json("x"), json(3), json(nullptr), json::array(), json::object(),
                             json(true), json::array({1, "a"})});
        break;
      case 4: // an operand or output renamed (to another value, or none)
        if (node.is_string())
          node = pickOf(valueNames(graph));
        break;
      case 5: // a string cut short or with one character replaced
      case 6:
        if (node.is_string())
          node = corrupt(node.get<std::string>());
        break;
      case 7: // a tensor type or sharding with one number changed
        if (node.is_string())
          node = changeNumber(node.get<std::string>());
        break;
      case 8: // an axis name swapped for another
        if (node.is_string())
          node = std::regex_replace(node.get<std::string>(), axisName(),
                                    pickOf<std::string>({"data", "model", "a", "b", "zz"}));
        break;
      default: // pick(9) < 9
        break;
      }
    }
    std::string text = graph.dump(1);
    if (!duplicateKey.empty()) {
      size_t where = text.find("\"\\u0001duplicate\"");
      if (where != std::string::npos)
        text.replace(where, 17, json(duplicateKey).dump());
    }
    return text;
  }

private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }
  template <typename T> T pickOf(const std::vector<T> &options) {
    return options[pick(options.size())];
  }

  std::string corrupt(std::string text) {
    if (text.empty())
      return "<";
    size_t at = pick(text.size());
    if (pick(2))
      return text.substr(0, at);
    text[at] =
        pickOf<char>({'<', '>', '{', '}', '[', ']', '"', ',', ':', '?', 'x', '0', '@', '\\', ' '});
    return text;
  }

  std::string changeNumber(const std::string &text) {
    std::vector<std::pair<size_t, size_t>> numbers;
    static const std::regex digits("[0-9]+");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), digits);
         it != std::sregex_iterator(); ++it)
      numbers.emplace_back(it->position(), it->length());
    if (numbers.empty())
      return text;
    auto [at, length] = numbers[pick(numbers.size())];
    std::string copy = text;
    copy.replace(
        at, length,
        pickOf<std::string>({"0", "1", "3", "65536", "4294967297", "99999999999999999999", "-1"}));
    return copy;
  }

  std::mt19937_64 random_;
};

/// Text mutations of MLIR: what a hand edit or a broken printer could make,
/// and the shapes that once made the reader recurse or blow up.
class MlirMutator {
public:
  explicit MlirMutator(uint64_t seed) : random_(seed) {}

  std::string mutate(const std::string &original) {
    std::vector<std::string> lines = splitLines(original);
    int mutations = 1 + static_cast<int>(pick(kMaxMutations));
    for (int m = 0; m < mutations && !lines.empty(); ++m) {
      size_t at = pick(lines.size());
      std::string &line = lines[at];
      switch (pick(10)) {
      case 0: // drop a line
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
        break;
      case 1: // repeat a line
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), std::string(line));
        break;
      case 2: // a number changed
        line = replaceOne(line, std::regex("[0-9]+"),
                          {"0", "1", "3", "65536", "4294967297", "99999999999999999999", "-1"});
        break;
      case 3: // a value renamed (to an existing one or none)
        line = replaceOne(line, std::regex("%[A-Za-z0-9_#]+"),
                          {"%0", "%1", "%arg0", "%nope", "%2#1", "%"});
        break;
      case 4: // one character replaced by a delimiter
        if (!line.empty())
          line[pick(line.size())] = pickOf<char>(
              {'<', '>', '{', '}', '[', ']', '(', ')', '"', ',', ':', '=', '#', '@', '%', '\\'});
        break;
      case 5: // the text cut short
        line = line.substr(0, pick(line.size() + 1));
        break;
      case 6: // a #loc alias naming itself, used by an op (the line first:
              // push_back moves the lines `line` refers into)
        line = replaceOne(line, std::regex("loc\\([^)]*\\)"), {"loc(#loc90)", "loc(#loc91)"});
        lines.push_back("#loc90 = loc(fused[#loc90, #loc91, #loc90])");
        lines.push_back("#loc91 = loc(\"x\"(#loc90))");
        break;
      case 7: // metadata nested deep (within the limit and past it)
        line = replaceOne(line, std::regex(" : "),
                          {" {shardgen.metadata = \"{\\\"_m\\\": " + std::string(40, '[') +
                               std::string(40, ']') + "}\"} : ",
                           " {shardgen.metadata = \"{\\\"_m\\\": " + std::string(300, '[') +
                               std::string(300, ']') + "}\"} : "});
        break;
      case 8: // an op swapped for another (a call of main: recursion)
        line = replaceOne(line, std::regex("stablehlo\\.[a-z_]+"),
                          {"stablehlo.add", "stablehlo.tanh", "call @main", "stablehlo.nope",
                           "func.call @activation"});
        break;
      case 9: // brackets nested deep
        line.insert(pick(line.size() + 1), std::string(pick(2) ? 300 : 20, '['));
        break;
      default:
        break;
      }
    }
    std::string text;
    for (const std::string &line : lines)
      text += line + "\n";
    return text;
  }

private:
  static std::vector<std::string> splitLines(const std::string &text) {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
      lines.push_back(text.substr(start, end - start));
    if (start < text.size())
      lines.push_back(text.substr(start));
    return lines;
  }
  std::string replaceOne(const std::string &line, const std::regex &pattern,
                         const std::vector<std::string> &choices) {
    std::vector<std::pair<size_t, size_t>> found;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), pattern);
         it != std::sregex_iterator(); ++it)
      found.emplace_back(it->position(), it->length());
    if (found.empty())
      return line;
    auto [at, length] = found[pick(found.size())];
    std::string copy = line;
    copy.replace(at, length, pickOf(choices));
    return copy;
  }
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }
  template <typename T> T pickOf(const std::vector<T> &options) {
    return options[pick(options.size())];
  }

  std::mt19937_64 random_;
};

/// One diagnostic line naming the file and a JSON pointer, exit 1, nothing
/// on stdout; or success.
void checkOutcome(const ToolResult &result, const std::string &file, bool printsOnSuccess) {
  INFO("stderr: ", result.err);
  REQUIRE_FALSE(result.timedOut);
  REQUIRE((result.exitCode == 0 || result.exitCode == 1));
  if (result.exitCode == 0) {
    CHECK(printsOnSuccess != result.out.empty());
    return;
  }
  CHECK(result.out.empty());
  // A JSON pointer (JSON graphs) or LINE:COLUMN (MLIR text).
  static const std::regex line("(/[^\\n]*|[0-9]+:[0-9]+)?: error: [^\\n]+\\n");
  REQUIRE(result.err.rfind(file + ":", 0) == 0);
  CHECK(std::regex_match(result.err.substr(file.size() + 1), line));
}

/// SHARDGEN_MUTANTS and SHARDGEN_MUTATION_SEED scale a run up (not in the suite).
int64_t fromEnvironment(const char *name, int64_t fallback) {
  const char *text = std::getenv(name);
  return text ? std::stoll(text) : fallback;
}

/// The files of samples/`folder` named *`extension`, sorted.
std::vector<fs::path> sampleFiles(const std::string &folder, const std::string &extension) {
  std::vector<fs::path> files;
  for (const auto &entry :
       fs::directory_iterator(fs::path(SHARDGEN_SOURCE_DIR) / "samples" / folder))
    if (entry.path().extension() == extension)
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

TEST_CASE("mutated samples are accepted or rejected with one diagnostic line, never crash") {
  const std::vector<fs::path> samples = sampleFiles("", ".json");
  REQUIRE(samples.size() >= 4);
  std::vector<json> originals;
  for (const fs::path &sample : samples)
    originals.push_back(json::parse(readFile(sample.string())));

  const std::string dir = makeTempDir();
  Mutator mutator(fromEnvironment("SHARDGEN_MUTATION_SEED", 20261123));
  const int64_t mutants = fromEnvironment("SHARDGEN_MUTANTS", kMutants);
  int64_t rejected = 0;
  for (int64_t n = 0; n < mutants; ++n) {
    const std::string file = dir + "/mutant" + std::to_string(n) + ".json";
    const std::string text = mutator.mutate(originals[n % originals.size()]);
    writeFile(file, text);
    CAPTURE(n);
    INFO("mutant of ", samples[n % samples.size()].filename().string(), ":\n", text);
    ToolResult check = runShardgen("check '" + file + "'");
    checkOutcome(check, file, true);
    rejected += check.exitCode == 1;
    checkOutcome(runShardgen("propagate '" + file + "'"), file, true);
    if (n % kRunEvery == 0)
      checkOutcome(runShardgen("run '" + file + "' --verify-spmd -o '" + dir + "/out'"), file,
                   false);
  }
  // The mutations reach past the reader: some mutants stay valid graphs.
  MESSAGE(rejected << " of " << mutants << " mutants rejected");
  CHECK(rejected > mutants / 4);
  CHECK(rejected < mutants);
}

TEST_CASE("mutated MLIR samples are accepted or rejected with one diagnostic line, never hang") {
  const std::vector<fs::path> samples = sampleFiles("mlir", ".mlir");
  REQUIRE(samples.size() >= 3);
  std::vector<std::string> originals;
  for (const fs::path &sample : samples)
    originals.push_back(readFile(sample.string()));

  const std::string dir = makeTempDir();
  MlirMutator mutator(fromEnvironment("SHARDGEN_MUTATION_SEED", 20261123));
  const int64_t mutants = fromEnvironment("SHARDGEN_MLIR_MUTANTS", kMlirMutants);
  int64_t rejected = 0;
  for (int64_t n = 0; n < mutants; ++n) {
    const std::string file = dir + "/mutant" + std::to_string(n) + ".mlir";
    const std::string text = mutator.mutate(originals[n % originals.size()]);
    writeFile(file, text);
    CAPTURE(n);
    INFO("mutant of ", samples[n % samples.size()].filename().string(), ":\n", text);
    // Each takes well under a second; the limit only catches a hang.
    ToolResult check = runShardgenWithin(60, "check '" + file + "'");
    checkOutcome(check, file, true);
    rejected += check.exitCode == 1;
    checkOutcome(runShardgenWithin(60, "import '" + file + "'"), file, true);
  }
  MESSAGE(rejected << " of " << mutants << " MLIR mutants rejected");
  CHECK(rejected > mutants / 4);
  CHECK(rejected < mutants);
}
