// Bad input never crashes the reader or the verifier: every sample and corpus
// graph, with one number at a time replaced by an extreme value (in JSON
// integers and inside type, sharding and rule strings), is either accepted or
// rejected with a GraphError. Run under ASan/UBSan this also catches overflow.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compiler/frontend/GraphReader.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/Verifier.h"

using namespace shardgen;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char *const kDigits = "0123456789";
const char *const kExtremeTexts[] = {"0", "1", "3", "4611686018427387904"};
const int64_t kExtremeIntegers[] = {-1, 0, 3, int64_t(1) << 62};

/// Every node of the document, depth first, as a pointer to mutate in place.
void collectNodes(json &node, std::vector<json *> &nodes) {
  nodes.push_back(&node);
  if (node.is_structured())
    for (auto &child : node)
      collectNodes(child, nodes);
}

/// The outcome of reading and verifying one text: false if it threw
/// anything but a GraphError.
bool failsCleanly(const std::string &text, std::string &unexpected) {
  try {
    Graph graph = readGraph(text);
    verifyGraph(graph);
  } catch (const GraphError &) {
    return true; // a diagnostic: the clean failure
  } catch (const std::exception &error) {
    unexpected = error.what();
    return false;
  }
  return true;
}

void mutateEveryNumber(const fs::path &path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  json document = json::parse(buffer.str(), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded())
    return; // the malformed-JSON entries
  std::vector<json *> nodes;
  collectNodes(document, nodes);
  for (json *node : nodes) {
    if (node->is_structured())
      continue; // reassigning it would free the children collected above
    const json original = *node;
    std::vector<json> replacements;
    if (node->is_number_integer()) {
      for (int64_t value : kExtremeIntegers)
        replacements.emplace_back(value);
    } else if (node->is_string()) {
      const std::string text = node->get<std::string>();
      // Each run of digits in turn: dims, sub-axis sizes, priorities, factor sizes.
      for (size_t begin = text.find_first_of(kDigits); begin != std::string::npos;) {
        size_t end = std::min(text.find_first_not_of(kDigits, begin), text.size());
        for (const char *value : kExtremeTexts)
          replacements.emplace_back(std::string(text).replace(begin, end - begin, value));
        begin = text.find_first_of(kDigits, end);
      }
    }
    for (const json &replacement : replacements) {
      *node = replacement;
      std::string unexpected;
      bool clean = failsCleanly(document.dump(), unexpected);
      CHECK_MESSAGE(clean, path.filename().string(), " with ", replacement.dump(), ": ",
                    unexpected);
    }
    *node = original;
  }
}

} // namespace

TEST_CASE("extreme numbers anywhere give a GraphError or pass, never a crash") {
  for (const char *folder : {"samples", "test/bad_inputs"})
    for (const auto &entry : fs::directory_iterator(fs::path(SHARDGEN_SOURCE_DIR) / folder))
      if (entry.path().extension() == ".json")
        mutateEveryNumber(entry.path());
}
