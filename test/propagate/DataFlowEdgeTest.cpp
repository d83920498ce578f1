// Shardy's data-flow edges (ShardableDataFlowOpInterface): the results of
// optimization_barrier take their sources' shardings through an identity
// edge, as Shardy's tests show (basic_propagation_data_flow_edges.mlir,
// propagation_pipeline.mlir: @optimization_barrier).

#include <doctest/doctest.h>

#include "test/propagate/PropagationTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

const std::string kEdgeMesh = R"({"name": "a", "size": 2}, {"name": "b", "size": 2})";

/// Shardy's @optimization_barrier: arg0 [{a}, {?}], two outputs asking for
/// [{?}, {b}] and [{b}, {?}].
std::string barrierGraph() {
  return graphJson(
      kEdgeMesh,
      R"({"name": "arg0", "type": "tensor<32x96xf32>", "sharding": "<@mesh, [{\"a\"}, {?}]>"},
         {"name": "arg1", "type": "tensor<32x96xf32>"})",
      R"({"op": "add", "operands": ["arg0", "arg0"], "result": "sum"},
         {"op": "optimization_barrier", "operands": ["sum", "arg1"], "results": ["b0", "b1"]})",
      R"({"value": "b0", "sharding": "<@mesh, [{?}, {\"b\"}]>"},
         {"value": "b1", "sharding": "<@mesh, [{\"b\"}, {?}]>"})");
}

} // namespace

TEST_CASE("optimization_barrier: each result shares its operand's sharding (Shardy's pipeline)") {
  Propagated p = propagate(barrierGraph());
  CHECK(p.sharding("sum") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(p.sharding("b0") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(p.sharding("b1") == R"(<@mesh, [{"b"}, {}]>)");
  CHECK(p.sharding("arg0") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(p.sharding("arg1") == R"(<@mesh, [{"b"}, {}]>)");
}

TEST_CASE("optimization_barrier under basic propagation (Shardy's data-flow-edge test)") {
  Propagated p = propagate(barrierGraph(), PropagationStrategy::Basic);
  CHECK(p.sharding("sum") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(p.sharding("b0") == R"(<@mesh, [{"a"}, {"b"}]>)");
  CHECK(p.sharding("arg1") == R"(<@mesh, [{"b"}, {}]>)");
  CHECK(p.sharding("b1") == R"(<@mesh, [{"b"}, {}]>)");
}

TEST_CASE("a data-flow edge is no sharding rule: a conflict keeps the longest common prefix") {
  // Two barriers' results feed one add: the edge passes each source's
  // sharding to its result only, never sideways between the operands.
  Propagated p = propagate(graphJson(
      kEdgeMesh,
      R"({"name": "x", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{\"a\", \"b\"}, {}]>"},
         {"name": "y", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{\"a\"}, {\"b\"}]>"})",
      R"({"op": "optimization_barrier", "operands": ["x", "y"], "results": ["bx", "by"]})",
      R"({"value": "bx"}, {"value": "by"})"));
  CHECK(p.sharding("bx") == R"(<@mesh, [{"a", "b"}, {}]>)");
  CHECK(p.sharding("by") == R"(<@mesh, [{"a"}, {"b"}]>)");
  std::string why = explainValue(p.graph, p.result, valueNamed(p.graph, "bx"));
  CHECK(why.find("data-flow edge") != std::string::npos);
}
