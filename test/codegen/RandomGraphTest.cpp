// Differential test: random graphs (the seeded generator), propagated,
// partitioned, generated, JIT-compiled and run on the threads runtime, equal
// the reference interpreter. CI runs seeds [0, 200); a wider sweep by hand:
//   SHARDGEN_RANDOM_SEEDS=200:1200 test_codegen -tc='random graphs*'

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "test/codegen/CodegenTestUtil.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

struct SeedRange {
  uint64_t begin = 0, end = 200;
};

/// "FIRST:END" from SHARDGEN_RANDOM_SEEDS, else the CI range.
SeedRange seedRange() {
  SeedRange range;
  const char *text = std::getenv("SHARDGEN_RANDOM_SEEDS");
  if (!text)
    return range;
  std::string spec(text);
  size_t colon = spec.find(':');
  if (colon == std::string::npos)
    return range;
  range.begin = std::stoull(spec.substr(0, colon));
  range.end = std::stoull(spec.substr(colon + 1));
  return range;
}

std::string checkSeed(uint64_t seed, const RandomGraphOptions &options = {}) {
  std::string json = randomGraphJson(seed, options);
  std::string result;
  try {
    Graph graph = loadVerified(json);
    result = checkCompiledEqualsInterpreter(graph, seed * 13 + 5);
  } catch (const std::exception &error) {
    result = error.what();
  }
  return result.empty() ? "" : result + "\n" + json;
}

} // namespace

TEST_CASE("random graphs: compiled == interpreted") {
  const SeedRange range = seedRange();
  for (uint64_t seed = range.begin; seed < range.end; ++seed) {
    CAPTURE(seed);
    CHECK(checkSeed(seed) == "");
  }
}

TEST_CASE("random graphs with distributed inputs and outputs: compiled == interpreted") {
  // Half of the inputs and outputs distributed (random chunks, clipped
  // edges, either order): transfers to and from shardings, and between
  // distributions, in every kind of program.
  RandomGraphOptions options;
  options.distributions = 0.5;
  for (uint64_t seed = 0; seed < 24; ++seed) {
    CAPTURE(seed);
    CHECK(checkSeed(seed, options) == "");
  }
}

TEST_CASE("random graphs with loops and branches: compiled == interpreted") {
  // While loops and cases whose regions read values of the graph, their
  // results sharded or not: per-device loops and switches.
  RandomGraphOptions options;
  options.controlFlowMoves = 2;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    CAPTURE(seed);
    CHECK(checkSeed(seed, options) == "");
  }
}
