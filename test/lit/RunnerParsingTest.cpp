// The lit runner's reading of test files: RUN lines and their mapping of
// sdy_opt passes onto shardgen commands, chunks and cases with their checks.

#include <doctest/doctest.h>

#include <algorithm>

#include "test/lit/runner/RunLine.h"
#include "test/lit/runner/TestFile.h"

using namespace shardgen::lit;

namespace {

using Args = std::vector<std::string>;

/// The lines of `text` that are not blank.
std::vector<std::string> keptLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    if (!line.empty())
      lines.push_back(line);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return lines;
}

size_t lineCount(const std::string &text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("RUN lines of our own files run shardgen as written") {
  RunCommand command = parseRunLine("shardgen export %s --sharding-rules | FileCheck %s");
  CHECK(command.unsupported.empty());
  CHECK(command.shardgenArgs == Args{"export", "%s", "--sharding-rules"});
  CHECK(command.fileCheckArgs.empty());
  CHECK(command.checkPrefixes == Args{"CHECK"});
  CHECK(command.splitInputFile);

  command = parseRunLine("shardgen propagate %s --format mlir | FileCheck %s "
                         "--check-prefixes=A,B --strict-whitespace");
  CHECK(command.fileCheckArgs == Args{"--check-prefixes=A,B", "--strict-whitespace"});
  CHECK(command.checkPrefixes == Args{"A", "B"});
}

TEST_CASE("sdy_opt passes map onto shardgen commands") {
  RunCommand rules =
      parseRunLine("sdy_opt %s -sdy-populate-op-sharding-rules -verify-diagnostics 2>&1 | "
                   "FileCheck %s");
  CHECK(rules.unsupported.empty());
  CHECK(rules.shardgenArgs == Args{"export", "%s", "--sharding-rules"});
  CHECK_FALSE(rules.splitInputFile);

  RunCommand basic = parseRunLine("sdy_opt %s -split-input-file -sdy-add-data-flow-edges "
                                  "-sdy-basic-propagate -sdy-sink-data-flow-edges | FileCheck %s");
  CHECK(basic.shardgenArgs == Args{"propagate", "%s", "--format", "mlir", "--strategy", "basic"});
  CHECK(basic.splitInputFile);

  RunCommand aggressive = parseRunLine(
      R"(sdy_opt %s -split-input-file -sdy-aggressive-propagate="propagation-strategy=aggressive" | FileCheck %s)");
  CHECK(aggressive.shardgenArgs.back() == "aggressive");
  CHECK(parseRunLine("sdy_opt %s -sdy-op-priority-propagate | FileCheck %s").shardgenArgs.back() ==
        "op-priority");
  CHECK(
      parseRunLine("sdy_opt %s -sdy-user-priority-propagate | FileCheck %s").shardgenArgs.back() ==
      "user-priority");
  CHECK(parseRunLine("sdy_opt %s -sdy-propagation-pipeline | FileCheck %s").shardgenArgs.back() ==
        "user-priority");
}

TEST_CASE("RUN lines without a counterpart are unsupported, with the reason") {
  CHECK(parseRunLine("sdy_opt %s -sdy-basic-propagate='keep-sharding-rules=true' | FileCheck %s")
            .unsupported == "option 'keep-sharding-rules=true' of -sdy-basic-propagate has no "
                            "shardgen counterpart");
  CHECK(parseRunLine("sdy_opt %s -sdy-insert-explicit-reshards | FileCheck %s").unsupported ==
        "sdy_opt argument '-sdy-insert-explicit-reshards' has no shardgen counterpart");
  CHECK(
      parseRunLine("sdy_opt %s -sdy-populate-op-sharding-rules -verify-diagnostics").unsupported ==
      "the RUN line does not pipe its output into FileCheck");
  CHECK(parseRunLine("mlir-opt %s | FileCheck %s").unsupported ==
        "the RUN line runs 'mlir-opt', not shardgen or sdy_opt");
}

TEST_CASE("RUN lines continue over a trailing backslash") {
  CHECK(runLinesOf("// RUN: shardgen export %s \\\n// RUN:   --sharding-rules | FileCheck %s\n"
                   "func.func @f() {\n}\n") ==
        Args{"shardgen export %s --sharding-rules | FileCheck %s"});
}

TEST_CASE("a file without split markers: one case per public function") {
  const std::string text = "// RUN: shardgen export %s | FileCheck %s\n" // 1
                           "sdy.mesh @m = <[\"a\"=2]>\n"                 // 2
                           "\n"                                          // 3
                           "// CHECK-LABEL: func @first\n"               // 4
                           "func.func @first(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                           "  // CHECK: stablehlo.negate\n" // 6
                           "  %0 = stablehlo.negate %arg0 : tensor<4xf32>\n"
                           "  return %0 : tensor<4xf32>\n"
                           "}\n" // 9
                           "func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                           "  return %arg0 : tensor<4xf32>\n"
                           "}\n"                            // 12
                           "// CHECK-LABEL: func @second\n" // 13
                           "func.func public @second(%arg0: tensor<f32> {sdy.sharding = "
                           "#sdy.sharding<@m, []>}) -> (tensor<f32> {a = {b}}) attributes {c} {\n"
                           "  return %arg0 : tensor<f32>\n"
                           "} // trailing comment\n" // 16
                           "// CHECK: after the last function\n";
  TestFile file = readTestFile(text, true);
  REQUIRE(file.chunks.size() == 1);
  const auto &cases = file.chunks[0];
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].name == "first");
  CHECK(cases[0].line == 5);
  CHECK(cases[1].name == "second");
  CHECK(cases[1].line == 14);
  // Inputs: the mesh, the private helper and the function; line numbers kept.
  CHECK(lineCount(cases[0].input) == lineCount(text));
  std::vector<std::string> input = keptLines(cases[1].input);
  REQUIRE(input.size() == 7);
  CHECK(input[0] == "sdy.mesh @m = <[\"a\"=2]>");
  CHECK(input[1].rfind("func.func private @helper", 0) == 0);
  CHECK(input[4].rfind("func.func public @second", 0) == 0);
  CHECK(input[6] == "} // trailing comment");
  // Checks: from the previous public function's end to this one's (the last
  // to the chunk's end).
  std::vector<std::string> checks = keptLines(cases[0].checks);
  CHECK(checks.front() == "// RUN: shardgen export %s | FileCheck %s");
  CHECK(checks.back() == "}");
  checks = keptLines(cases[1].checks);
  CHECK(checks.front().rfind("func.func private @helper", 0) == 0);
  CHECK(checks.back() == "// CHECK: after the last function");
}

TEST_CASE("split markers cut chunks; names and strings hide brackets") {
  const std::string text = "// RUN: sdy_opt %s -split-input-file -sdy-basic-propagate | "
                           "FileCheck %s\n"
                           "sdy.mesh @m = <[\"a\"=2]>\n"
                           "func.func @\"quoted name\"(%arg0: tensor<f32>) -> tensor<f32> {\n"
                           "  %0 = stablehlo.custom_call @t(%arg0) {backend_config = \"}{\"} : "
                           "(tensor<f32>) -> tensor<f32>\n"
                           "  return %0 : tensor<f32>\n"
                           "}\n"
                           "// -----\n"
                           "sdy.mesh @m = <[\"b\"=2]>\n"
                           "// CHECK-LABEL: func @g\n"
                           "func.func @g() {\n"
                           "  return\n"
                           "}\n";
  TestFile split = readTestFile(text, true);
  REQUIRE(split.chunks.size() == 2);
  REQUIRE(split.chunks[0].size() == 1);
  CHECK(split.chunks[0][0].name == "quoted name");
  CHECK(keptLines(split.chunks[0][0].input).size() == 5);
  REQUIRE(split.chunks[1].size() == 1);
  CHECK(keptLines(split.chunks[1][0].input) ==
        Args{"sdy.mesh @m = <[\"b\"=2]>", "func.func @g() {", "  return", "}"});

  TestFile whole = readTestFile(text, false);
  REQUIRE(whole.chunks.size() == 1);
  CHECK(whole.chunks[0].size() == 2);
}

TEST_CASE("a part without top-level functions (a module) is one case") {
  const std::string text = "// RUN: shardgen export %s | FileCheck %s\n"
                           "// CHECK: func.func public @main\n"
                           "module @m {\n"
                           "  func.func public @main() {\n"
                           "    return\n"
                           "  }\n"
                           "}\n";
  TestFile file = readTestFile(text, true);
  REQUIRE(file.chunks.size() == 1);
  REQUIRE(file.chunks[0].size() == 1);
  CHECK(file.chunks[0][0].name == "module");
  CHECK(file.chunks[0][0].line == 3);
  CHECK(file.chunks[0][0].input == text);
  CHECK(file.chunks[0][0].checks == text);
}
