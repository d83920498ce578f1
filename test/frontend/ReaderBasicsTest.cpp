#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/ir/Diagnostic.h"

using namespace shardgen;

static const char *kMlp = R"({
  "format": "shardgen-graph",
  "version": 1,
  "name": "mlp",
  "meshes": [
    {"name": "mesh", "axes": [{"name": "data", "size": 2}, {"name": "model", "size": 2}]}
  ],
  "inputs": [
    {"name": "x", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{\"data\"}, {}]>"},
    {"name": "w", "type": "tensor<16x32xf32>"}
  ],
  "ops": [
    {"op": "dot_general", "operands": ["x", "w"], "result": "h",
     "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
    {"op": "stablehlo.tanh", "operands": ["h"], "result": "y"}
  ],
  "outputs": [{"value": "y", "sharding": "<@mesh, [{\"data\"}, {\"model\"}]>"}]
})";

TEST_CASE("reader: the spec's example graph") {
  Graph graph = readGraph(kMlp);
  CHECK(graph.name == "mlp");
  REQUIRE(graph.meshes.size() == 1);
  CHECK(graph.meshes[0].name == "mesh");
  CHECK(graph.meshes[0].axes == std::vector<MeshAxis>{{"data", 2}, {"model", 2}});
  CHECK(graph.meshes[0].pointer == "/meshes/0");

  REQUIRE(graph.main.args.size() == 2);
  const Value &x = graph.value(graph.main.args[0].value);
  CHECK(x.name == "x");
  CHECK(x.pointer() == "/inputs/0");
  CHECK(x.type == TensorType{ElementType::F32, {8, 16}});
  CHECK(x.definingOp == nullptr);
  CHECK(x.region == &graph.main);
  REQUIRE(graph.main.args[0].sharding.has_value());
  CHECK(graph.main.args[0].sharding->meshName == "mesh");
  CHECK_FALSE(graph.main.args[1].sharding.has_value());

  REQUIRE(graph.main.ops.size() == 2);
  const Op &dot = graph.main.ops[0];
  CHECK(dot.kind == OpKind::DotGeneral);
  CHECK(dot.pointer == "/ops/0");
  CHECK(dot.operands == std::vector<ValueId>{graph.main.args[0].value, graph.main.args[1].value});
  const auto &dims = dot.attr<DotGeneralAttrs>();
  CHECK(dims.lhsContractingDimensions == std::vector<int64_t>{1});
  CHECK(dims.rhsContractingDimensions == std::vector<int64_t>{0});
  CHECK(dims.lhsBatchingDimensions.empty());
  CHECK(dims.rhsBatchingDimensions.empty());
  REQUIRE(dot.results.size() == 1);
  const Value &h = graph.value(dot.results[0]);
  CHECK(h.name == "h");
  CHECK(h.pointer() == "/ops/0");
  CHECK_FALSE(h.type.has_value());
  CHECK(h.definingOp == &dot);
  CHECK(h.resultIndex == 0);
  CHECK(dot.declaredTypes.empty()); // none given
  CHECK_FALSE(dot.pluralResults);

  const Op &tanh = graph.main.ops[1];
  CHECK(tanh.kind == OpKind::Tanh);
  CHECK(tanh.operands == std::vector<ValueId>{dot.results[0]});
  REQUIRE(graph.main.results.size() == 1);
  CHECK(graph.main.results[0].value == tanh.results[0]);
  CHECK(graph.main.results[0].pointer == "/outputs/0");
  REQUIRE(graph.main.results[0].sharding.has_value());
  CHECK(graph.main.results[0].sharding->dims.size() == 2);
}
