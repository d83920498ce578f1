// GraphText: a large graph file is mapped and its read pages given back
// while the reader goes; what is read is what reading the text gives.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphText.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Diagnostic.h"

using namespace shardgen;
namespace fs = std::filesystem;

namespace {

/// A tanh chain of `ops` ops, each followed by `padding` spaces (a large
/// file read fast); the last op reads an undefined name when `broken`.
std::string paddedChain(int ops, size_t padding, bool broken) {
  std::string text = R"({"format": "shardgen-graph", "version": 1,
 "inputs": [{"name": "v0", "type": "tensor<4xf32>"}],
 "ops": [)";
  for (int i = 1; i <= ops; ++i) {
    std::string operand = broken && i == ops ? "nope" : "v" + std::to_string(i - 1);
    text += R"({"op": "tanh", "operands": [")" + operand + R"("], "result": "v)" +
            std::to_string(i) + "\"}" + (i < ops ? "," : "") + std::string(padding, ' ');
  }
  return text + "],\n \"outputs\": [{\"value\": \"v" + std::to_string(ops) + "\"}]}\n";
}

std::string writeScratch(const std::string &name, const std::string &text) {
  fs::path dir = fs::temp_directory_path() / ("shardgen_text_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// Resident kB of the mapping starting at `start` (/proc/self/smaps).
int64_t residentKb(const void *start) {
  std::ifstream smaps("/proc/self/smaps");
  std::ostringstream address;
  address << std::hex << reinterpret_cast<uintptr_t>(start) << "-";
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    // A mapping's header: "start-end perms ..."; its fields: "Name:  value kB".
    std::string first = line.substr(0, line.find(' '));
    if (first.find('-') != std::string::npos)
      inside = first.rfind(address.str(), 0) == 0;
    else if (inside && first == "Rss:")
      return std::stoll(line.substr(4));
  }
  return -1;
}

} // namespace

TEST_CASE("a mapped graph file reads as its text, its read pages given back") {
  std::string text = paddedChain(80, 200 << 10, false); // 16 MB
  std::string path = writeScratch("chain.json", text);
  GraphText mapped = GraphText::load(path);
  REQUIRE(mapped.view() == text);
  Graph graph = readGraph(mapped);
  CHECK(writeGraph(graph) == writeGraph(readGraph(std::string_view(text))));
  // Read through: only the last release step (4 MiB) may still be resident.
  int64_t resident = residentKb(mapped.view().data());
  CHECK(resident >= 0);
  CHECK(resident < 6 << 10);
  fs::remove(path);
}

TEST_CASE("an error after given-back pages is the one the text gives") {
  std::string text = paddedChain(80, 200 << 10, true);
  std::string path = writeScratch("broken.json", text);
  auto failure = [](auto read) {
    try {
      read();
    } catch (const GraphError &error) {
      return error.pointer() + ": " + error.what();
    }
    return std::string("no error");
  };
  std::string expected = failure([&] { readGraph(std::string_view(text)); });
  CHECK(expected.find("/ops/79/operands/0") != std::string::npos);
  CHECK(failure([&] { readGraphFile(path); }) == expected);
  fs::remove(path);
}
