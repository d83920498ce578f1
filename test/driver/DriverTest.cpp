// compiler/driver: what the tool and the Python module share. Their own
// tests (test/cli, python/tests) check the messages end to end; these the
// pieces alone.

#include <doctest/doctest.h>

#include <string>

#include "compiler/driver/GraphSource.h"
#include "compiler/driver/LaunchSettings.h"
#include "compiler/driver/MeshSizes.h"
#include "compiler/ir/Diagnostic.h"

using namespace shardgen;
using namespace shardgen::driver;

namespace {

const std::string kJson = R"({"format": "shardgen-graph", "version": 1, "name": "g",
  "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}],
              "device_ids": [0, 1, 2, 3]}],
  "inputs": [{"name": "a", "type": "tensor<4xf32>"}],
  "ops": [{"op": "tanh", "operands": ["a"], "result": "b"}],
  "outputs": [{"value": "b"}]})";

const std::string kMlir = R"(module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";

std::string errorOf(const std::function<void()> &work) {
  try {
    work();
  } catch (const std::exception &error) {
    return error.what();
  }
  return "";
}

} // namespace

TEST_CASE("graph sources: JSON or MLIR by name or content, MLIR with its places") {
  CHECK(isMlirSource("m.mlir", "{"));
  CHECK(isMlirSource("<string>", kMlir));
  CHECK_FALSE(isMlirSource("g.json", kJson));
  GraphText json(kJson);
  GraphSource fromJson = readGraphSource(json, "g.json");
  CHECK(fromJson.graph.name == "g");
  CHECK(fromJson.places == nullptr);
  GraphText mlir(kMlir);
  GraphSource fromMlir = readGraphSource(mlir, "<string>");
  REQUIRE(fromMlir.places != nullptr);
  CHECK(fromMlir.graph.main.ops.size() == 1);
  ErrorPlace place = placeOfError(fromMlir.places.get(), "/ops/0", "bad");
  CHECK(place.place == "4:5");
  CHECK(place.line == 4);
  CHECK(place.column == 5);
}

TEST_CASE("error places in JSON text: the pointer's value, or the parser's line and column") {
  ErrorPlace place = placeOfError(nullptr, "/ops/0/operands/0", "unknown value", kJson);
  CHECK(place.place == "/ops/0/operands/0");
  CHECK(place.message == "unknown value");
  CHECK(place.line == 5);
  CHECK(place.column == 39);
  // Without the text: the pointer only.
  CHECK(placeOfError(nullptr, "/ops/0", "m").line == 0);
  // A syntax error: the line and column nlohmann's parser names.
  GraphText broken(std::string("{\n  \"format\": \"shardgen-graph\",\n  oops\n}"));
  std::string pointer, message;
  try {
    readGraphSource(broken, "b.json");
  } catch (const GraphError &error) {
    pointer = error.pointer();
    message = error.what();
  }
  REQUIRE_FALSE(message.empty());
  place = placeOfError(nullptr, pointer, message, broken.view());
  CHECK(place.line == 3);
  CHECK(place.column == 3);
}

TEST_CASE("mesh sizes: parsed, applied in every mesh, checked against device_ids") {
  CHECK(parseMeshSizes("x=4,y=1") == MeshSizes{{"x", 4}, {"y", 1}});
  CHECK(meshSizesText({{"x", 4}, {"y", 1}}) == "x=4,y=1");
  CHECK(errorOf([] { parseMeshSizes("x"); }) ==
        "expected AXIS=SIZE[,AXIS=SIZE...], got 'x' in 'x'");
  CHECK(errorOf([] { parseMeshSizes("x=0"); }) ==
        "size of axis \"x\" must be an integer from 1 to 1048576, got '0'");
  CHECK(errorOf([] { parseMeshSizes("x=2,x=2"); }) == "axis \"x\" is given twice");
  GraphText text(kJson);
  Graph graph = readGraphSource(text, "g.json").graph;
  CHECK(errorOf([&] { applyMeshSizes(graph, {{"z", 2}}); }) ==
        "no mesh of the graph has an axis \"z\" (its axes: x, y)");
  CHECK(errorOf([&] { applyMeshSizes(graph, {{"x", 1 << 21}}); }) ==
        "size of axis \"x\" must be an integer from 1 to 1048576, got '2097152'");
  CHECK(errorOf([&] { applyMeshSizes(graph, {{"x", 4}}); }) ==
        "mesh @m lists 4 device_ids (/meshes/0/device_ids), but with x=4 it has 8 devices");
  applyMeshSizes(graph, {{"x", 1}, {"y", 4}});
  CHECK(graph.meshes[0].axes[0].size == 1);
  CHECK(graph.meshes[0].axes[1].size == 4);
}

TEST_CASE("launch settings: the timeout, and the stall hook from the environment") {
  ::unsetenv("SHARDGEN_TEST_STALL_DEVICE");
  CHECK(launchOptions(0).stallPositionForTest == -1);
  CHECK(launchOptions(2.5).timeoutSeconds == 2.5);
  ::setenv("SHARDGEN_TEST_STALL_DEVICE", "3", 1);
  CHECK(launchOptions(0).stallPositionForTest == 3);
  ::unsetenv("SHARDGEN_TEST_STALL_DEVICE");
  CHECK(launchOptions(0).cancel == nullptr);
}
