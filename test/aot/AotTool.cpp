// Test-only helper of the AOT differential test (scripts/aot-differential.sh):
//   shardgen_aot_tool graph SEED FILE        writes random graph SEED, named
//                                            "random_SEED", as JSON
//   shardgen_aot_tool inputs GRAPH SEED DIR  writes DIR/in<i>.npy: small
//                                            integer inputs (testing::randomInputs)
//   shardgen_aot_tool compare EXPECTED ACTUAL
//                                            exit 1 unless every EXPECTED/out<j>.npy
//                                            matches ACTUAL/out<j>.npy elementwise

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/Npy.h"
#include "test/aot/OutputComparison.h"
#include "test/support/RandomGraphGenerator.h"
#include "test/support/TestValues.h"

using namespace shardgen;
namespace fs = std::filesystem;

namespace {

int writeRandomGraph(uint64_t seed, const std::string &file) {
  nlohmann::ordered_json graph = nlohmann::ordered_json::parse(testing::randomGraphJson(seed));
  graph["name"] = "random_" + std::to_string(seed); // unique: programs share an application
  std::ofstream(file) << graph.dump(2) << "\n";
  return 0;
}

int writeInputs(const std::string &graphFile, uint64_t seed, const std::string &dir) {
  Graph graph = readGraphFile(graphFile);
  fs::create_directories(dir);
  std::vector<Literal> inputs = testing::randomInputs(graph, seed);
  for (size_t i = 0; i < inputs.size(); ++i)
    writeNpy(dir + "/in" + std::to_string(i) + ".npy", inputs[i]);
  return 0;
}

int compare(const std::string &expectedDir, const std::string &actualDir) {
  for (int j = 0;; ++j) {
    const std::string file = "/out" + std::to_string(j) + ".npy";
    if (!fs::exists(expectedDir + file))
      return 0;
    const std::string why =
        testing::compareElementwise(readNpy(actualDir + file), readNpy(expectedDir + file));
    if (!why.empty()) {
      std::cerr << actualDir << file << ": " << why << "\n";
      return 1;
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "graph" && argc == 4)
      return writeRandomGraph(std::stoull(argv[2]), argv[3]);
    if (command == "inputs" && argc == 5)
      return writeInputs(argv[2], std::stoull(argv[3]), argv[4]);
    if (command == "compare" && argc == 4)
      return compare(argv[2], argv[3]);
  } catch (const std::exception &error) {
    std::cerr << error.what() << "\n";
    return 1;
  }
  std::cerr << "usage: shardgen_aot_tool graph SEED FILE | inputs GRAPH SEED DIR | "
               "compare EXPECTED_DIR ACTUAL_DIR\n";
  return 2;
}
