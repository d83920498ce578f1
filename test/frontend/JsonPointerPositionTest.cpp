// Where a JSON pointer's value starts in the text: what places a graph
// error at a line and column for an editor (the Python module's
// GraphError.line/.column).

#include <doctest/doctest.h>

#include <string>

#include "compiler/frontend/JsonPointerPosition.h"

using namespace shardgen;

namespace {

std::string at(const std::string &text, const std::string &pointer) {
  auto position = jsonPointerPosition(text, pointer);
  if (!position)
    return "none";
  return std::to_string(position->line) + ":" + std::to_string(position->column);
}

const std::string kGraph = R"({
  "name": "g",
  "inputs": [{"name": "x", "type": "tensor<4xf32>"}],
  "ops": [
    {"op": "add", "operands": ["x", "nope"], "result": "y"},
    {"op": "tanh",
     "operands": ["y"], "result": "z"}
  ],
  "a/b": {"~c": [1, [2, {"d": true}]]}
})";

} // namespace

TEST_CASE("a pointer's value: members, elements, nested, last on a line") {
  CHECK(at(kGraph, "") == "1:1");
  CHECK(at(kGraph, "/name") == "2:11");
  CHECK(at(kGraph, "/inputs/0/type") == "3:36");
  CHECK(at(kGraph, "/ops/0/operands/1") == "5:37");
  CHECK(at(kGraph, "/ops/1") == "6:5");
  CHECK(at(kGraph, "/ops/1/operands/0") == "7:19");
  // RFC 6901 escapes: ~1 is '/', ~0 is '~'.
  CHECK(at(kGraph, "/a~1b/~0c/1/1/d") == "9:31");
}

TEST_CASE("a pointer the text lacks: the deepest value on the way") {
  CHECK(at(kGraph, "/ops/7/operands") == "4:10"); // the ops array
  CHECK(at(kGraph, "/ops/0/sharding") == "5:5");  // op 0
  CHECK(at(kGraph, "/inputs/x") == "3:13");       // an array indexed by a name
  CHECK(at(kGraph, "/name/0") == "2:11");         // into a string
  CHECK(at(kGraph, "/ops/01") == "4:10");         // not an index (a leading zero)
}

TEST_CASE("strings with escapes and brackets are stepped over whole") {
  const std::string text = R"({"a\"]}": "x}]\\", "\u00e9": [ "[", {"}": 1} ], "b": 2})";
  CHECK(at(text, "/b") == "1:" + std::to_string(text.find("2}") + 1));
  CHECK(at(text, "/\xc3\xa9/1/}") == "1:" + std::to_string(text.find("1}") + 1));
}

TEST_CASE("malformed text and non-pointers never read past the end") {
  CHECK(at("", "") == "none");
  CHECK(at("   ", "/a") == "none");
  CHECK(at(R"({"a": [1, 2)", "/a/5") == "1:7");
  CHECK(at(R"({"a": "unterminated)", "/a/0") == "1:7");
  CHECK(at(R"({"a" 1})", "/a") == "1:1");
  CHECK(at(kGraph, "12:5") == "none");
}
