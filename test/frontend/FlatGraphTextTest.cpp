// The writer prints flat inputs, ops and outputs straight to text: the same
// bytes as printing the document they make, on one line or over several.
#include <doctest/doctest.h>

#include "compiler/frontend/FlatObjectPrinter.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/frontend/JsonPrinter.h"

using namespace shardgen;

namespace {

/// What printJson prints for the object `members` at `indent` inside a
/// document, against FlatObjectPrinter's text.
void checkLikePrintJson(const Json &object, size_t indent) {
  std::string expected;
  printJsonAt(object, indent, expected);
  std::string printed = "prefix ";
  FlatObjectPrinter printer(printed, indent);
  for (auto it = object.begin(); it != object.end(); ++it)
    printJsonInline(it.value(), printer.key(it.key()));
  printer.finish();
  CHECK(printed == "prefix " + expected);
}

} // namespace

TEST_CASE("FlatObjectPrinter prints as printJson: one line, several lines, empty") {
  checkLikePrintJson(Json::object(), 4);
  checkLikePrintJson(Json{{"op", "add"}, {"operands", {"a", "b"}}, {"result", "c"}}, 4);
  std::string wide(90, 'w');
  checkLikePrintJson(Json{{"name", wide}, {"n", 1}, {"dims", Json::array()}, {"q", "\"x\""}}, 4);
  // Exactly at the width and one past it.
  checkLikePrintJson(Json{{"k", std::string(100 - 4 - 10, 'k')}}, 4);
  checkLikePrintJson(Json{{"k", std::string(100 - 4 - 9, 'k')}}, 4);
}

TEST_CASE("FlatObjectPrinter lines up many members in place, at any indent") {
  // More members than the printer keeps inline, wide and narrow, one wide
  // member among short ones, indents 0 and 6.
  Json many = Json::object();
  for (int i = 0; i < 23; ++i)
    many["_k" + std::to_string(i)] =
        i % 3 == 0 ? Json(std::string(static_cast<size_t>(i), 'v')) : Json(Json::array({i, "x"}));
  for (size_t indent : {0, 6}) {
    checkLikePrintJson(many, indent);
    checkLikePrintJson(Json{{"a", 1}, {"b", std::string(120, 'b')}, {"c", Json::array()}}, indent);
    checkLikePrintJson(Json{{"only", std::string(120, 'o')}}, indent);
  }
}

TEST_CASE("writer: flat and other elements print as their document does") {
  // Plural results with a partial sharding, a wide op, metadata and a
  // distribution (not flat: through JSON), a body.
  Graph graph = readGraph(R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "m", "axes": [{"name": "a", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<4xf32>", "sharding": "<@m, [{\"a\"}]>"},
               {"name": "y", "type": "tensor<4xf32>", "_note": {"k": [1, {"z": 2}]}}],
    "ops": [{"op": "custom_call", "operands": ["x"], "results": ["p", "q"],
             "shardings": [null, "<@m, [{}]>"], "call_target_name": "f"},
            {"op": "add", "operands": ["p", "y"], "result": "a_rather_long_value_name_to_make_it_wide",
             "sharding": "<@m, [{\"a\"}]>"},
            {"op": "negate", "operands": ["q"], "result": "n", "_why": "kept"}],
    "outputs": [{"value": "a_rather_long_value_name_to_make_it_wide"}, {"value": "n", "_o": 1}]})");
  std::string text = writeGraph(graph);
  CHECK(printJson(Json::parse(text)) + "\n" == text);
  CHECK(text.find(R"("shardings": [null, "<@m, [{}]>"])") != std::string::npos);
  std::string streamed;
  writeGraph(graph, [&](std::string_view piece) { streamed += piece; });
  CHECK(streamed == text);
}
