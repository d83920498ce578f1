// Origins are typed facts of the IR: applyPropagation sets them, the writer
// prints them as `_origin`/`_origins`, the reader takes back what propagation
// wrote (and leaves any other `_origin` as metadata). The writer prints large
// graphs op by op: the same bytes as printing one document.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/frontend/JsonPrinter.h"
#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kChain =
    graphJson(R"({"name": "x", "size": 2})",
              R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{x}]>"},
         {"name": "b", "type": "tensor<8xf32>", "_origin": "user:/elsewhere", "_note": "kept"})",
              R"({"op": "add", "operands": ["a", "b"], "result": "c"},
         {"op": "negate", "operands": ["c"], "results": ["d"]})",
              R"({"value": "d"})");

Graph propagated(const std::string &json) {
  Graph graph = loadGraph(json);
  applyPropagation(graph, propagateShardings(graph, PropagationStrategy::UserPriority));
  return graph;
}

} // namespace

TEST_CASE("applyPropagation sets typed origins; the metadata holds no _origin of its own") {
  Graph graph = propagated(kChain);
  const RegionArgument &a = graph.main.args[0];
  REQUIRE(a.origin);
  CHECK(a.origin->kind == ShardingOrigin::Kind::User);
  CHECK(a.origin->pointer.str() == "/inputs/0/sharding");
  CHECK(a.metadata.empty());
  const Op &add = graph.main.ops[0];
  REQUIRE(add.origins.size() == 1);
  CHECK(add.origins[0].str() == "op:/ops/0");
  CHECK(graph.main.ops[1].origins.size() == 1); // plural form: written as "_origins"
}

TEST_CASE("the writer puts a typed origin in place of the file's _origin, else after the rest") {
  std::string text = writeGraph(propagated(kChain));
  // b's sharding changed: its _origin is replaced where the file had it.
  CHECK(text.find("\"_origin\": \"op:/ops/0\",\n      \"_note\": \"kept\"") != std::string::npos);
  CHECK(text.find(R"("_origins": ["op:/ops/1"])") != std::string::npos);
  Graph back = loadGraph(text);
  // What propagation wrote last in an object is typed again on reading ...
  REQUIRE(back.main.args[0].origin);
  CHECK(back.main.args[0].origin->str() == "user:/inputs/0/sharding");
  CHECK(back.main.args[0].metadata.empty());
  REQUIRE(back.main.ops[1].origins.size() == 1);
  CHECK(back.main.ops[1].origins[0].str() == "op:/ops/1");
  // ... an _origin followed by other keys stays metadata, in its place.
  CHECK(!back.main.args[1].origin);
  CHECK(back.main.args[1].metadata ==
        Metadata{{"_origin", "\"op:/ops/0\""}, {"_note", "\"kept\""}});
  CHECK(writeGraph(back) == text);
}

TEST_CASE("origin text that would not be written back the same stays metadata") {
  CHECK(parseShardingOrigin("group:7")->groupId == 7);
  CHECK(parseShardingOrigin("default")->kind == ShardingOrigin::Kind::Default);
  CHECK(!parseShardingOrigin("group:07"));
  CHECK(!parseShardingOrigin("group:"));
  CHECK(!parseShardingOrigin("user"));
  CHECK(!parseShardingOrigin("defaults"));
}

TEST_CASE("every sample, propagated: the op-by-op writer prints what one document prints") {
  std::filesystem::path samples = std::filesystem::path(SHARDGEN_SOURCE_DIR) / "samples";
  int count = 0;
  for (const auto &entry : std::filesystem::directory_iterator(samples)) {
    if (entry.path().extension() != ".json")
      continue;
    CAPTURE(entry.path().filename().string());
    std::ifstream in(entry.path());
    std::stringstream json;
    json << in.rdbuf();
    for (const std::string &text :
         {writeGraph(loadGraph(json.str())), writeGraph(propagated(json.str()))})
      CHECK(printJson(Json::parse(text)) + "\n" == text);
    ++count;
  }
  CHECK(count > 0);
}

TEST_CASE("a slot whose file states an origin of its own keeps it while its sharding stays") {
  // a's `_origin` is no origin propagation writes and b's is not its last
  // key: both stay metadata, their slots state an origin (statesOrigin).
  const std::string json =
      graphJson(R"({"name": "x", "size": 2})",
                R"({"name": "a", "type": "tensor<8xf32>", "sharding": "<@mesh, [{x}]>",
           "_origin": "written by hand"},
         {"name": "b", "type": "tensor<8xf32>", "_origin": "user:/inputs/1", "_note": "n"})",
                R"({"op": "add", "operands": ["a", "b"], "result": "c"})", R"({"value": "c"})");
  Graph graph = loadGraph(json);
  CHECK(graph.main.args[0].statesOrigin);
  CHECK(graph.main.args[1].statesOrigin);
  CHECK_FALSE(graph.main.ops[0].statesOrigins);
  std::string text = writeGraph(propagated(json));
  // a's sharding stays: the file's words stay; b's changes: propagation's
  // origin replaces the file's, in its place.
  CHECK(text.find(R"("_origin": "written by hand")") != std::string::npos);
  CHECK(text.find("\"_origin\": \"op:/ops/0\",\n      \"_note\": \"n\"") != std::string::npos);
}
