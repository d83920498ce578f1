// Hostile input, round three: small files that crashed or hung the readers
// (issue 27). Each case is the hostile text, the command, the exit code and
// message expected, and a time limit the harness enforces (the tool is
// killed past it: a hang fails the case instead of holding the suite).
//
// - a 50,000-character call_target_name (std::regex recursed per character);
// - JSON nested 5,000 and 1,000,000 levels deep inside MLIR's
//   shardgen.metadata (nlohmann's printer recursed; 5,000 levels were
//   imported into a graph the JSON reader refuses);
// - #loc aliases each naming the next five times, 30 deep (re-expanded on
//   every use: 5^30);
// - func.calls each calling the next twice, 30 deep (2^30 inlined ops);
// - a main calling one private function 16,384 times (inlined names probed
//   name_1, name_2, ...: quadratic);
// - `import` writing only what `check` then reads;
// - MLIR attributes nested a million levels deep (the parser's own limit);
// - bytes that are not UTF-8 (import failed writing JSON: exit 4);
// - a tensor of rank 50,000 (eval printed it recursing once per dim:
//   SIGSEGV; show took quadratic time): ranks past kMaxRank are refused.

#include <doctest/doctest.h>

#include <string>

#include "test/hostile/HostileSupport.h"

using namespace shardgen::test;

namespace {

/// A one-op JSON graph: a custom_call of `target` on a 4-float input.
std::string customCallGraph(const std::string &target) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "h", "meshes": [],
  "inputs": [{"name": "a", "type": "tensor<4xf32>"}],
  "ops": [{"op": "custom_call", "operands": ["a"], "result": "b", "type": "tensor<4xf32>",
           "call_target_name": ")" +
         target + R"("}],
  "outputs": [{"value": "b"}]})";
}

/// `func.func @main` of one negate with `attributes` and `loc` on it, then `rest`.
std::string mlirWithOp(const std::string &attributes, const std::string &rest = "",
                       const std::string &loc = "") {
  return "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
         "  %0 = stablehlo.negate %x " +
         attributes + " : tensor<4xf32> " + loc +
         "\n"
         "  return %0 : tensor<4xf32>\n}\n" +
         rest;
}

/// shardgen.metadata holding {"_x": [[...[]...]]}, `depth` arrays deep.
std::string deepMetadata(size_t depth) {
  std::string json = "{\\\"_x\\\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
  return "{shardgen.metadata = \"" + json + "\"}";
}

} // namespace

TEST_CASE("a 50,000-character custom_call target is checked without recursion") {
  std::string graph = hostileFile("long.json", customCallGraph(std::string(50000, 'a')));
  // An identifier, if a long one: the graph is valid; compile writes it.
  ToolResult check = runShardgenWithin(60, "check '" + graph + "'");
  checkResult(check, 0, "");
  std::string out = makeTempDir() + "/gen";
  checkResult(runShardgenWithin(120, "compile '" + graph + "' -o '" + out + "'"), 0, "wrote");
  // eval needs the library: the error echoes at most 200 characters of it.
  ToolResult eval = runShardgenWithin(60, "eval '" + graph + "'");
  checkResult(eval, 1, "/ops/0/call_target_name: error: ");
  CHECK(eval.err.size() < 1000);

  std::string notIdentifier = std::string(25000, 'a') + "-" + std::string(25000, 'b');
  ToolResult bad = runShardgenWithin(
      60, "check '" + hostileFile("bad.json", customCallGraph(notIdentifier)) + "'");
  checkResult(bad, 1, "is not a C identifier");
}

TEST_CASE("a type of rank 50,000 is refused by every command, rank 64 is not") {
  auto negateOf = [](const std::string &type) {
    return R"({"format": "shardgen-graph", "version": 1, "name": "r", "meshes": [],
      "inputs": [{"name": "x", "type": ")" +
           type + R"("}], "ops": [{"op": "negate", "operands": ["x"], "result": "y"}],
      "outputs": [{"value": "y"}]})";
  };
  auto typeOfRank = [](size_t rank) {
    std::string type = "tensor<";
    for (size_t i = 0; i < rank; ++i)
      type += "1x";
    return type + "f32>";
  };
  std::string huge = hostileFile("rank.json", negateOf(typeOfRank(50000)));
  for (const char *command : {"check", "eval", "run", "show", "explain"}) {
    CAPTURE(command);
    std::string args = std::string(command) == "explain" ? " y" : "";
    ToolResult result = runShardgenWithin(30, std::string(command) + " '" + huge + "'" + args);
    checkResult(result, 1, "/inputs/0/type: error: invalid tensor type \"tensor<1x1x1x");
    CHECK(result.err.find("... more than 64 dimensions") != std::string::npos);
    CHECK(result.err.size() < 1000);
  }
  std::string highest = hostileFile("rank64.json", negateOf(typeOfRank(64)));
  checkResult(runShardgenWithin(60, "eval '" + highest + "'"), 0, "");

  // dot_general of a value with itself, contracting nothing, doubles the
  // rank: 20 deep was rank 64 x 2^20 (2 GB for a 1.7 kB file).
  std::string ops;
  for (int i = 0; i < 20; ++i)
    ops += std::string(i ? ", " : "") + R"({"op": "dot_general", "operands": ["y)" +
           std::to_string(i) + R"(", "y)" + std::to_string(i) + R"("], "result": "y)" +
           std::to_string(i + 1) + "\"}";
  std::string doubling = hostileFile(
      "doubling.json", R"({"format": "shardgen-graph", "version": 1, "name": "r", "meshes": [],
      "inputs": [{"name": "y0", "type": ")" +
                           typeOfRank(64) + R"("}], "ops": [)" + ops +
                           R"(], "outputs": [{"value": "y20"}]})");
  checkResult(runShardgenWithin(30, "check '" + doubling + "'"), 1,
              "/ops/0/type: error: the result would have 128 dimensions, more than 64");
}

TEST_CASE("JSON nested past the limit inside shardgen.metadata is refused, not recursed into") {
  for (size_t depth : {size_t(5000), size_t(1000000)}) {
    std::string file = hostileFile("deep.mlir", mlirWithOp(deepMetadata(depth)));
    for (const char *command : {"check", "import"}) {
      CAPTURE(depth);
      CAPTURE(command);
      ToolResult result = runShardgenWithin(60, std::string(command) + " '" + file + "'");
      checkResult(result, 1,
                  file + ":2:49: error: shardgen.metadata nests deeper than a graph "
                         "file may (256 levels in all; at line 1, column ");
      CHECK(result.out.empty());
    }
  }
}

TEST_CASE("MLIR attributes nested past the limit are refused, not recursed into") {
  // The MLIR parser shares the JSON reader's limit (NestingLimit.h): the
  // 257th level is refused where it opens.
  const size_t depth = 1000000;
  const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
  std::string dictionaries;
  for (size_t i = 0; i < 100000; ++i)
    dictionaries += "{b = ";
  dictionaries += "1" + std::string(100000, '}');
  for (const auto &[attribute, column] :
       {std::pair{"{a = " + arrays + "}", "286"}, std::pair{"{a = " + dictionaries + "}", "663"}}) {
    std::string file = hostileFile("deep_attribute.mlir", mlirWithOp(attribute));
    for (const char *command : {"check", "import"}) {
      CAPTURE(command);
      ToolResult result = runShardgenWithin(60, std::string(command) + " '" + file + "'");
      checkResult(result, 1, file + ":2:" + column + ": error: nested deeper than 256 levels");
      CHECK(result.out.empty());
    }
  }
}

TEST_CASE("bytes that are not UTF-8 in MLIR are refused by check and import alike") {
  // Found by fuzz_mlir: a mesh axis name (a raw body, not a lexed string)
  // with a stray continuation byte passed check, and import then failed
  // writing the JSON (exit 4). A string's escapes are checked once decoded.
  const std::string mesh = "sdy.mesh @mesh = <[\"a\xcc\x87\x99\"=2]>\n";
  const std::string raw = hostileFile("raw.mlir", mesh + mlirWithOp(""));
  const std::string escaped =
      hostileFile("escaped.mlir", mlirWithOp("{mhlo.frontend_attributes = {n = \"\\ff\"}}"));
  for (std::string command : {"check", "import"}) {
    CAPTURE(command);
    ToolResult result = runShardgenWithin(60, command + " '" + raw + "'");
    checkResult(result, 1,
                raw + ":1:24: error: the text is not valid UTF-8 here (byte 0x99): a graph "
                      "file is JSON text");
    CHECK(result.out.empty());
    checkResult(runShardgenWithin(60, command + " '" + escaped + "'"), 1,
                escaped + ":2:61: error: string literal is not valid UTF-8");
  }
}

TEST_CASE("import writes only what check reads: metadata at the depth limit") {
  // An op's keys sit 3 levels deep in a graph file (root, ops, op): 253
  // levels of metadata make 256 in all, one more is too deep.
  std::string fits = hostileFile("fits.mlir", mlirWithOp(deepMetadata(252)));
  std::string graph = makeTempDir() + "/graph.json";
  checkResult(runShardgenWithin(60, "import '" + fits + "' -o '" + graph + "'"), 0, "");
  checkResult(runShardgenWithin(60, "check '" + graph + "'"), 0, "");
  std::string tooDeep = hostileFile("deep.mlir", mlirWithOp(deepMetadata(254)));
  checkResult(runShardgenWithin(60, "import '" + tooDeep + "'"), 1,
              "shardgen.metadata nests deeper than a graph file may");
}

TEST_CASE("#loc aliases naming each other many times are resolved once each") {
  std::string aliases;
  for (int i = 0; i < 30; ++i) {
    std::string refs;
    for (int k = 0; k < 5; ++k)
      refs += (k ? ", #loc" : "#loc") + std::to_string(i + 1);
    aliases += "#loc" + std::to_string(i) + " = loc(fused[" + (i + 1 < 30 ? refs : "\"f.py\":7:3") +
               "])\n";
  }
  std::string file = hostileFile("locs.mlir", mlirWithOp("", aliases, "loc(#loc0)"));
  for (const char *command : {"check", "import"})
    checkResult(runShardgenWithin(60, std::string(command) + " '" + file + "'"), 0, "");
  // The note still finds the file location at the end of the chain.
  std::string bad =
      hostileFile("locs_bad.mlir", "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                                   "  %0 = stablehlo.negate %x : tensor<8xf32> loc(#loc0)\n"
                                   "  return %0 : tensor<4xf32>\n}\n" +
                                       aliases);
  checkResult(runShardgenWithin(60, "check '" + bad + "'"), 1, "(at f.py:7:3)");
}

TEST_CASE("calls that would inline to more than the budget are refused before inlining") {
  // @f0 calls @f1 twice, @f1 calls @f2 twice, ... 30 levels: 2^30 ops.
  std::string text = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "  %0 = call @f0(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
                     "  return %0 : tensor<4xf32>\n}\n";
  for (int i = 0; i < 30; ++i) {
    std::string body = i + 1 < 30 ? "  %0 = call @f" + std::to_string(i + 1) +
                                        "(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                        "  %1 = call @f" +
                                        std::to_string(i + 1) +
                                        "(%0) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                        "  return %1 : tensor<4xf32>\n"
                                  : "  %1 = stablehlo.negate %a : tensor<4xf32>\n"
                                    "  return %1 : tensor<4xf32>\n";
    text += "func.func private @f" + std::to_string(i) +
            "(%a: tensor<4xf32>) -> tensor<4xf32> {\n" + body + "}\n";
  }
  std::string file = hostileFile("calls.mlir", text);
  for (const char *command : {"check", "import", "run"})
    checkResult(runShardgenWithin(60, std::string(command) + " '" + file + "'"), 1,
                file + ":2:3: error: inlining this call would take the graph past 1048576 "
                       "inlined ops (every func.call is inlined: the graph format has no "
                       "functions)");
}

TEST_CASE("a function called 16,384 times is inlined in linear time, with distinct names") {
  std::string calls = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n";
  std::string previous = "%x";
  for (int i = 0; i < 16384; ++i) {
    calls += "  %v" + std::to_string(i) + " = call @g(" + previous +
             ") : (tensor<4xf32>) -> tensor<4xf32>\n";
    previous = "%v" + std::to_string(i);
  }
  calls += "  return " + previous +
           " : tensor<4xf32>\n}\n"
           "func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
           "  %0 = stablehlo.negate %a : tensor<4xf32>\n"
           "  return %0 : tensor<4xf32>\n}\n";
  std::string file = hostileFile("many_calls.mlir", calls);
  std::string graph = makeTempDir() + "/graph.json";
  // Seconds normally; the limit only catches the quadratic probing.
  checkResult(runShardgenWithin(120, "import '" + file + "' -o '" + graph + "'"), 0, "");
  std::string json = readFile(graph);
  CHECK(json.find("\"g.0\"") != std::string::npos);
  CHECK(json.find("\"g.0_16383\"") != std::string::npos);
  checkResult(runShardgenWithin(120, "check '" + graph + "'"), 0, "");
}

TEST_CASE("result counts past what the text can type are refused before names are made") {
  // 30 bytes a line, a million results each: gigabytes of names before.
  std::string text = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n";
  for (int i = 0; i < 1000; ++i)
    text += "  %r" + std::to_string(i) + ":1048575 = stablehlo.negate %x : tensor<4xf32>\n";
  text += "  return %x : tensor<4xf32>\n}\n";
  std::string file = hostileFile("results.mlir", text);
  ToolResult result = runShardgenWithin(60, "check '" + file + "'", smallMemoryPrefix());
  checkResult(result, 1, file + ":2:3: error: invalid result count 1048575");
}
