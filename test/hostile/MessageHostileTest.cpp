// Hostile input, round three: what a message echoes (issue 27). At most
// about 200 characters of any name or token from the input, cut with "...";
// every control character escaped (\x00, \x1b), the bidi and line-separator
// controls too (\u202e): a NUL no longer cuts the message short, U+202E no
// longer reverses the terminal's line.

#include <doctest/doctest.h>

#include <string>

#include "test/hostile/HostileSupport.h"

using namespace shardgen::test;

namespace {

/// A graph whose one op uses the undefined value `name` (JSON text of it).
std::string graphUsing(const std::string &jsonName) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "g", "meshes": [],
  "inputs": [{"name": "a", "type": "tensor<4xf32>"}],
  "ops": [{"op": "negate", "operands": [")" +
         jsonName + R"("], "result": "b"}], "outputs": [{"value": "b"}]})";
}

ToolResult checkFile(const std::string &file) {
  ToolResult result = runShardgenWithin(60, "check '" + file + "'");
  INFO(result.err);
  REQUIRE_FALSE(result.timedOut);
  CHECK(result.exitCode == 1);
  return result;
}

} // namespace

TEST_CASE("a NUL in a name is escaped and the message goes on past it") {
  std::string file = hostileFile("nul.json", graphUsing("x\\u0000y"));
  ToolResult result = checkFile(file);
  CHECK(result.err == file + ":/ops/0/operands/0: error: unknown value \"x\\x00y\"\n");
}

TEST_CASE("bidi and other controls in a name are escaped") {
  std::string file =
      hostileFile("bidi.json", graphUsing("a\\u202eb\\u2066c\\u200fd\\u0085e\\u001bf\\u2028g"));
  ToolResult result = checkFile(file);
  CHECK(result.err == file + ":/ops/0/operands/0: error: unknown value "
                             "\"a\\u202eb\\u2066c\\u200fd\\u0085e\\x1bf\\u2028g\"\n");
  // Other non-ASCII text stays as it is.
  std::string accents = hostileFile("accents.json", graphUsing("caf\xc3\xa9"));
  CHECK(checkFile(accents).err.find("unknown value \"caf\xc3\xa9\"") != std::string::npos);
}

TEST_CASE("characters that print as nothing in a name are escaped") {
  // Soft hyphen, zero-width space, joiner, word joiner, byte order mark,
  // an interlinear annotation anchor, a tag (a surrogate pair in JSON), a
  // no-break space, a Hangul filler, a variation selector, the grapheme
  // joiner.
  std::string file = hostileFile(
      "invisible.json",
      graphUsing("x\\u00ady\\u200bz\\u200dw\\u2060v\\ufeffu\\ufff9t\\udb40\\udc41s\\u00a0r\\u3164q"
                 "\\ufe0fp\\u034fo"));
  ToolResult result = checkFile(file);
  CHECK(result.err == file +
                          ":/ops/0/operands/0: error: unknown value "
                          "\"x\\u00ady\\u200bz\\u200dw\\u2060v\\ufeffu\\ufff9t\\U000e0041s\\u00a0r"
                          "\\u3164q\\ufe0fp\\u034fo\"\n");
  // Accents stay (a combining mark prints).
  std::string accent = hostileFile("combining.json", graphUsing("e\\u0301"));
  CHECK(checkFile(accent).err.find("unknown value \"e\xcc\x81\"") != std::string::npos);
}

TEST_CASE("bytes that are not UTF-8 are shown by their code") {
  // The JSON reader echoes what it read last: a stray 0x9b (CSI to an 8-bit
  // terminal) and 0xff come out as \x9b and \xff, a file name's bytes too.
  std::string file = hostileFile("f\x9b.json", graphUsing("x\x9b\xff"));
  ToolResult result = checkFile(file);
  CHECK(result.err.find("ill-formed UTF-8 byte; last read: '\"x\\x9b'") != std::string::npos);
  CHECK(result.err.find("f\\x9b.json") != std::string::npos);
  CHECK(result.err.find('\x9b') == std::string::npos);
}

TEST_CASE("a message echoes at most about 200 characters of a long name") {
  std::string name(1 << 20, 'n');
  std::string file = hostileFile("long.json", graphUsing(name));
  ToolResult result = checkFile(file);
  CHECK(result.err.size() < file.size() + 300);
  // The word echoed is `"nnn...` (its quote included): 200 characters, then "...".
  CHECK(result.err.find("unknown value \"" + std::string(199, 'n') + "...\n") != std::string::npos);
  // Many words of input too: an MLIR attribute echoed whole is cut in the
  // middle, the message at most 600 characters.
  std::string words;
  for (int i = 0; i < 100000; ++i)
    words += "w" + std::to_string(i) + " ";
  std::string mlir =
      hostileFile("words.mlir", "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                                "  %0 = stablehlo.negate %x {a = array<f64: " +
                                    words +
                                    ">} : tensor<4xf32>\n"
                                    "  return %0 : tensor<4xf32>\n}\n");
  ToolResult many = checkFile(mlir);
  CHECK(many.err.find("error: unsupported array attribute array<f64: w0 w1 w2") !=
        std::string::npos);
  CHECK(many.err.find(" ... ") != std::string::npos);
  CHECK(many.err.size() <= mlir.size() + std::string(":2:34: error: \n").size() + 600);
}

TEST_CASE("a control character in MLIR text is named by its code") {
  std::string file = hostileFile("control.mlir", "func.func @main() -> () {\n  \x01\n}\n");
  ToolResult result = checkFile(file);
  CHECK(result.err == file + ":2:3: error: unexpected character '\\x01'\n");
}
