// parseWithElementTexts: the reader's usual path keeps the elements of the
// top-level "inputs" and "ops" arrays as text and parses them one at a time.
// Anything it does not handle goes back to parsing the whole document.
#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/JsonParsing.h"
#include "compiler/ir/Diagnostic.h"

using namespace shardgen;

TEST_CASE("the inputs and ops of a graph are split off as their exact text") {
  std::string text = R"({"format": "shardgen-graph", "version": 1,
    "inputs": [ {"name": "x", "type": "tensor<4xf32>"} ,{"name": "y", "type": "tensor<4xf32>", "_n": 1}],
    "ops": [{"op": "add", "operands": ["x", "y"], "result": "z", "_w": [1, {"a": 2.5}]},
            {"op": "tanh", "operands": ["z"], "result": "t", "_k": 7}],
    "outputs": [{"value": "t"}], "_top": {"ops": [1]}})";
  std::optional<DocumentWithElementTexts> split = parseWithElementTexts(text);
  REQUIRE(split);
  CHECK(split->inputTexts ==
        std::vector<std::string_view>{R"({"name": "x", "type": "tensor<4xf32>"})",
                                      R"({"name": "y", "type": "tensor<4xf32>", "_n": 1})"});
  CHECK(split->opTexts ==
        std::vector<std::string_view>{
            R"({"op": "add", "operands": ["x", "y"], "result": "z", "_w": [1, {"a": 2.5}]})",
            R"({"op": "tanh", "operands": ["z"], "result": "t", "_k": 7})"});
  CHECK(split->root["inputs"] == Json::array());
  CHECK(split->root["ops"] == Json::array());
  CHECK(split->root["outputs"][0]["value"] == "t");
  CHECK(split->root["_top"]["ops"] == Json::array({1})); // only top-level arrays are split
  Graph graph = readGraph(text);
  CHECK(graph.main.args.size() == 2);
  REQUIRE(graph.main.ops.size() == 2);
  CHECK(graph.main.ops[1].pointer == "/ops/1");
  CHECK(graph.main.ops[0].metadata == Metadata{{"_w", R"([1,{"a":2.5}])"}});
}

TEST_CASE("shapes the split does not handle are left to the whole document") {
  for (const char *text : {
           R"({"ops": [{"op": "a"}], "ops": []})", // a key twice: the last one wins
           R"({"inputs": [], "inputs": [{}]})",    // the same for inputs
           R"({"ops": [1]})",                      // an element that is not an object
           R"({"ops": [[{"op": "a"}]]})",          // nor an array
           R"({"ops": [{"op": "a"},]})",           // malformed
           R"({"ops": [{"op": 1e999}]})",          // a number out of range
       })
    CHECK_FALSE(parseWithElementTexts(text));
}

TEST_CASE("an error in an op is reported as reading the whole document reports it") {
  // A name used before its definition: only the whole document can see it
  // defined later, and says so.
  std::string text = R"({"format": "shardgen-graph", "version": 1,
    "inputs": [{"name": "x", "type": "tensor<4xf32>"}],
    "ops": [{"op": "tanh", "operands": ["later"], "result": "a"},
            {"op": "tanh", "operands": ["x"], "result": "later"}],
    "outputs": [{"value": "a"}]})";
  REQUIRE(parseWithElementTexts(text));
  try {
    readGraph(text);
    FAIL("expected an error");
  } catch (const GraphError &error) {
    CHECK(error.pointer() == "/ops/0/operands/0");
    CHECK(std::string(error.what()) == "value \"later\" is used before it is defined");
  }
}

TEST_CASE("an element is parsed to the value nlohmann's parser gives") {
  for (const char *text : {
           R"({"op": "add", "operands": ["x", "y"], "result": "z"})",
           R"({"a": 0, "b": -0, "c": 123456789012345678, "d": -7, "e": [], "f": {}})",
           R"( { "t" : true , "f":false,"n" :null, "nest": [[1, [2]], {"k": [-3]}] } )",
           R"({"big": 1234567890123456789012, "x": 1.5, "y": 2e3, "z": -0.0})",       // nlohmann's
           R"({"esc": "a\"b\\c\n", "u": "\u00e9", "raw": "caf\u00e9 é", "del": ""})", // ditto
           R"({"dup": 1, "dup": 2})",                                                 // last wins
           R"({"s": "<@m, [{\"x\"}, {}]>", "t": "a\\b\/c\b\f\n\r\t"})", // unescaped here
           R"({"k\"ey": 1})", // a key with an escape: nlohmann's
       }) {
    CAPTURE(text);
    Json expected = Json::parse(text);
    Json got = parseElementText(text);
    CHECK(got == expected);
    CHECK(got.dump() == expected.dump());
    // The same kinds of numbers (unsigned for non-negative integers).
    if (expected.is_object())
      for (auto it = expected.begin(); it != expected.end(); ++it)
        CHECK(got[it.key()].type() == it.value().type());
  }
}

TEST_CASE("a document in the plain subset is split without nlohmann, to the same texts") {
  // No fraction anywhere: checked and split by shardgen's own parser.
  std::string text = "{\"format\": \"shardgen-graph\", \"version\": 1,\n"
                     " \"inputs\": [ {\"name\": \"x\", \"type\": \"tensor<4xf32>\"} ],\n"
                     " \"ops\": [{\"op\": \"tanh\", \"operands\": [\"x\"], \"result\": \"t\"},"
                     "{\"op\": \"negate\",\"operands\":[\"t\"],\"result\":\"u\",\"_m\":[-1,0,{}]}],"
                     " \"outputs\": [{\"value\": \"u\"}]}";
  std::optional<DocumentWithElementTexts> split = parseWithElementTexts(text);
  REQUIRE(split);
  CHECK(split->inputTexts ==
        std::vector<std::string_view>{R"({"name": "x", "type": "tensor<4xf32>"})"});
  CHECK(split->opTexts == std::vector<std::string_view>{
                              R"({"op": "tanh", "operands": ["x"], "result": "t"})",
                              R"({"op": "negate","operands":["t"],"result":"u","_m":[-1,0,{}]})"});
  Json expected = Json::parse(text);
  expected["inputs"] = Json::array();
  expected["ops"] = Json::array();
  CHECK(split->root == expected);
  CHECK(split->root.dump() == expected.dump());
  // Leading zeros are not JSON: left to nlohmann, which rejects them.
  CHECK_FALSE(parseWithElementTexts(R"({"ops": [{"a": 01}]})"));
}
