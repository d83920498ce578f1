// The forms the importer reads: Shardy's test style (bare func.func, open
// dims, priorities, sub-axes), every op in MLIR's generic form, inline meshes
// and device_ids, collectives' replica groups back to mesh axes, GSPMD
// shardings onto a derived mesh, func.call inlining, and #loc locations.
#include <doctest/doctest.h>

#include <cmath>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"
#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;
using namespace shardgen::mlir;

namespace {

using testing::importVerified;
auto &errorOf = testing::importErrorOf;

const Op &opAt(const Graph &graph, size_t i) { return graph.main.ops.at(i); }

} // namespace

TEST_CASE("Shardy's test style: bare func.func, open dims, priorities, sub-axes, replicated") {
  Graph graph = importVerified(R"(
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}p1]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2}, {}], replicated={"a"}>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} dense<0.000000e+00> : tensor<8x8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=BACKWARD : tensor<8x8xf32>
  sdy.sharding_group %2 group_id = 309 : tensor<8x8xf32>
  %3 = stablehlo.dot %0, %2, precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  func.return %3: tensor<8x8xf32>
})");
  CHECK(opAt(graph, 1).kind == OpKind::Constant);
  CHECK(printSharding(*opAt(graph, 1).shardings[0]) == R"(<@mesh, [{"a", ?}, {?}]>)");
  CHECK(opAt(graph, 3).attr<ShardingGroupAttrs>().groupId == 309);
  CHECK(opAt(graph, 4).attr<DotGeneralAttrs>().lhsContractingDimensions == std::vector<int64_t>{1});
  CHECK(opAt(graph, 4).attr<DotGeneralAttrs>().rhsContractingDimensions == std::vector<int64_t>{0});
  REQUIRE(graph.meshes.size() == 1);
  CHECK(printSharding(*graph.main.args[0].sharding) == R"(<@mesh, [{"a", ?}, {?}p1]>)");
  CHECK(printSharding(*graph.main.args[1].sharding) ==
        R"(<@mesh, [{"b":(1)2}, {}], replicated={"a"}>)");
  CHECK(printSharding(*opAt(graph, 0).shardings[0]) == R"(<@mesh, [{"a"}, {}]>)");
  CHECK(printSharding(*graph.main.results[0].sharding) == R"(<@mesh, [{}, {"b"}]>)");
  CHECK(graph.value(graph.main.args[0].value).name == "arg0");
  CHECK(graph.value(opAt(graph, 0).results[0]).name == "0");
}

TEST_CASE("every op in MLIR's generic form") {
  Graph graph = importVerified(R"(
"builtin.module"() <{sym_name = "g"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<4x4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x6xf32>, %b: tensor<6x4xf32>):
    %d = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<4x4xf32>
    %c = "stablehlo.constant"() <{value = dense<[[1.5, 0x7F800000, -0.0, 2.0]]> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
    %i = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %t = "stablehlo.transpose"(%d) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %p = "stablehlo.compare"(%d, %t) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %s = "stablehlo.select"(%p, %d, %t) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %z = "stablehlo.constant"() <{value = dense<"0x00000000"> : tensor<f32>}> : () -> tensor<f32>
    %r = "stablehlo.reduce"(%s, %z) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %sl = "stablehlo.slice"(%s) <{limit_indices = array<i64: 4, 4>, start_indices = array<i64: 0, 1>, strides = array<i64: 2, 1>}> : (tensor<4x4xf32>) -> tensor<2x3xf32>
    %pd = "stablehlo.pad"(%sl, %z) <{edge_padding_high = array<i64: 2, 0>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 0, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
    %cc = "stablehlo.concatenate"(%pd, %s) <{dimension = 0 : i64}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %rv = "stablehlo.reverse"(%cc) <{dimensions = array<i64: 0>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %bb = "sdy.propagation_barrier"(%rv) <{allowed_direction = #sdy<propagation_direction FORWARD>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %sc = "sdy.sharding_constraint"(%bb) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
    "sdy.sharding_group"(%sc) <{group_id = 3 : i64}> : (tensor<8x4xf32>) -> ()
    %cu = "stablehlo.custom_call"(%s) <{call_target_name = "my_kernel", api_version = 2 : i32}> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=4}>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%cu) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
)");
  CHECK(graph.name == "g");
  const auto &ops = graph.main.ops;
  REQUIRE(ops.size() == 16);
  CHECK(ops[0].attr<DotGeneralAttrs>().lhsContractingDimensions == std::vector<int64_t>{1});
  const Literal c = ops[1].attr<ConstantAttrs>().expanded();
  CHECK(c.getFloat(0) == 1.5);
  CHECK(std::isinf(c.getFloat(1)));
  CHECK(std::signbit(c.getFloat(2)));
  CHECK(ops[2].attr<IotaAttrs>().iotaDimension == 1);
  CHECK(ops[6].attr<ConstantAttrs>().getFloat(0) == 0.0); // JAX's hex form
  CHECK(ops[3].attr<TransposeAttrs>().permutation == std::vector<int64_t>{1, 0});
  CHECK(ops[4].attr<CompareAttrs>().direction == ComparisonDirection::LT);
  CHECK(ops[7].attr<ReduceAttrs>().reducer == Reducer::Max);
  CHECK(ops[8].attr<SliceAttrs>().strides == std::vector<int64_t>{2, 1});
  CHECK(ops[9].attr<PadAttrs>().edgePaddingLow == std::vector<int64_t>{0, 1});
  CHECK(ops[10].attr<ConcatenateAttrs>().dimension == 0);
  CHECK(ops[12].attr<PropagationBarrierAttrs>().allowedDirection == BarrierDirection::Forward);
  CHECK(ops[13].kind == OpKind::ShardingConstraint);
  CHECK(ops[14].attr<ShardingGroupAttrs>().groupId == 3);
  CHECK(ops[15].attr<CustomCallAttrs>().callTargetName == "my_kernel");
  CHECK(ops[15].attr<CustomCallAttrs>().shardingRule.has_value());
}

TEST_CASE("inline meshes, device_ids and maximal meshes") {
  Graph graph = importVerified(R"(
module {
  sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
  sdy.mesh @maximal = <[], device_ids=[1]>
  func.func public @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<mesh<["z"=4]>, [{"z"}]>},
                         %y: tensor<4xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}) -> tensor<4xf32> {
    %0 = stablehlo.add %x, %y : tensor<4xf32>
    %1 = sdy.sharding_constraint %0 <mesh<["z"=4]>, [{}]> : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
})");
  REQUIRE(graph.meshes.size() == 3);
  CHECK(graph.meshes[0].deviceIds == std::vector<int64_t>{3, 2, 1, 0});
  CHECK(graph.meshes[1].isMaximal());
  CHECK(graph.meshes[2].name == "inline_mesh");
  CHECK(graph.meshes[2].axes == std::vector<MeshAxis>{{"z", 4}});
  CHECK(graph.main.args[0].sharding->meshName == "inline_mesh");
  CHECK(opAt(graph, 1).shardings[0]->meshName == "inline_mesh"); // the same inline mesh once
}

namespace {
std::string manualModule(const std::string &collective) {
  return R"(
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a", "b"} (%x: tensor<4x4xf32>) {
    )" + collective +
         R"(
    sdy.return %y : tensor<4x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
})";
}
const Op &bodyOp(const Graph &graph) { return graph.main.ops.at(0).body()->ops.at(0); }
} // namespace

TEST_CASE("replica groups map back to mesh axes, in order, through device_ids") {
  // Device ids [0, 2, 1, 3]: position (a, b) holds id 2a + b transposed.
  Graph sum = importVerified(manualModule(
      R"(%y = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>)"));
  CHECK(bodyOp(sum).attr<AllReduceAttrs>().axes == std::vector<std::string>{"a"});

  Graph gather = importVerified(manualModule(
      R"(%g = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<16x4xf32>
    %y = stablehlo.slice %g [0:4, 0:4] : (tensor<16x4xf32>) -> tensor<4x4xf32>)"));
  // Positions in the group: ids 0, 1, 2, 3 are (0,0), (1,0), (0,1), (1,1): "b" major.
  CHECK(bodyOp(gather).attr<AllGatherAttrs>().axes == std::vector<std::string>{"b", "a"});

  Graph permute = importVerified(manualModule(
      R"(%y = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>)"));
  CHECK(bodyOp(permute).attr<CollectivePermuteAttrs>().axes == std::vector<std::string>{"b"});
  CHECK(bodyOp(permute).attr<CollectivePermuteAttrs>().shift == 1);

  Graph toAll = importVerified(manualModule(
      R"(%w = "stablehlo.all_to_all"(%x) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x4xf32>) -> tensor<2x8xf32>
    %z = stablehlo.slice %w [0:2, 0:4] : (tensor<2x8xf32>) -> tensor<2x4xf32>
    %y = stablehlo.concatenate %z, %z, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>)"));
  CHECK(bodyOp(toAll).attr<AllToAllAttrs>().axes == std::vector<std::string>{"b"});

  auto [place, message] = errorOf(manualModule(
      R"(%y = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>)"));
  CHECK(place == "5:56"); // the replica_groups value
  CHECK(message == "replica_groups [[0, 3], [1, 2]] match no set of axes of mesh @mesh");
}

TEST_CASE("GSPMD shardings land on one derived mesh") {
  Graph graph = importVerified(R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"},
                         %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"},
                         %arg2: tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dim_replicate}"})
      -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[1,4]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
})");
  REQUIRE(graph.meshes.size() == 1);
  CHECK(graph.meshes[0].axes == std::vector<MeshAxis>{{"axis_0", 2}, {"axis_1", 2}});
  CHECK(printSharding(*graph.main.args[0].sharding) == R"(<@mesh, [{"axis_0"}, {"axis_1"}]>)");
  CHECK(printSharding(*graph.main.args[1].sharding) == R"(<@mesh, [{"axis_0", "axis_1"}, {}]>)");
  CHECK(printSharding(*graph.main.args[2].sharding) == R"(<@mesh, [{"axis_0"}]>)");
  CHECK(printSharding(*graph.main.results[0].sharding) == R"(<@mesh, [{}, {}]>)");
  CHECK(opAt(graph, 1).kind == OpKind::ShardingConstraint);
  CHECK(printSharding(*opAt(graph, 1).shardings[0]) == R"(<@mesh, [{}, {"axis_0", "axis_1"}]>)");

  Graph transposed = importVerified(R"(
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
})");
  CHECK(transposed.meshes[0].deviceIds == std::vector<int64_t>{0, 2, 1, 3});

  auto [place, message] = errorOf(R"(
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[3,1]<=[3]}"},
                %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
})");
  CHECK(place == "2:57");
  CHECK(message.find("GSPMD shardings: the shardings order their devices differently") == 0);
}

TEST_CASE("func.call of private functions is inlined, recursion refused") {
  Graph graph = importVerified(R"(
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @twice(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @double(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @double(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  REQUIRE(graph.main.ops.size() == 2);
  CHECK(graph.value(graph.main.ops[0].results[0]).name == "twice.double.0");
  CHECK(graph.value(graph.main.ops[1].results[0]).name == "twice.double.0_1");
  CHECK(graph.main.ops[1].operands[0] == graph.main.ops[0].results[0]);
  CHECK(graph.main.results[0].value == graph.main.ops[1].results[0]);

  auto [place, message] = errorOf(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @main(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  CHECK(place == "3:3");
  CHECK(message == "recursive call of @main (the graph format has no calls to inline it into)");
}

TEST_CASE("verifier errors point at the MLIR text, with the op's #loc") {
  auto [place, message] = errorOf(R"(#loc1 = loc("model.py":12:3)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32> loc(#loc2)
  return %0 : tensor<8xf32>
}
#loc2 = loc("jit(f)/add"(#loc1)))");
  CHECK(place == "4:65"); // the stated type the verifier disagrees with
  CHECK(message.find("(at model.py:12:3)") != std::string::npos);

  // The importer's own errors get it too.
  auto [importPlace, importMessage] = errorOf(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.cholesky %x, %x : tensor<4xf32> loc("model.py":7:9)
  return %0 : tensor<4xf32>
})");
  CHECK(importPlace == "3:3");
  CHECK(importMessage == "operation 'stablehlo.cholesky' is not supported (the graph format has no "
                         "such op) (at model.py:7:9)");
}

TEST_CASE("reduce with a body as JAX prints it: pairs of (accumulator, element), several inputs") {
  Graph graph = importVerified(R"(
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %cst), (%i init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %1 = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>
    %3 = stablehlo.select %1, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
})");
  const Op &reduce = graph.main.ops.at(2);
  REQUIRE(reduce.kind == OpKind::Reduce);
  CHECK(reduce.results.size() == 2);
  CHECK_FALSE(reduce.attr<ReduceAttrs>().reducer.has_value());
  REQUIRE(reduce.body());
  const Region &body = *reduce.body();
  // The block's arguments: the accumulators, then the elements.
  std::vector<std::string> names;
  for (const RegionArgument &arg : body.args)
    names.push_back(graph.value(arg.value).name);
  CHECK(names == std::vector<std::string>{"a", "ai", "b", "bi"});
  CHECK(body.ops.size() == 3);
  CHECK(body.results.size() == 2);
  CHECK(body.pointer == reduce.pointer + "/body");
  CHECK(body.parentOp == &reduce);
}

TEST_CASE("reduce forms: the six reducers stay the reducer form, xor becomes a body, generic") {
  Graph simple = importVerified(R"(
func.func @main(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }
  return %0 : tensor<4xf32>
})");
  CHECK(simple.main.ops[0].attr<ReduceAttrs>().reducer == Reducer::Max);
  CHECK(simple.main.ops[0].regions.empty());
  Graph xored = importVerified(R"(
func.func @main(%x: tensor<4x8xi32>, %z: tensor<i32>) -> tensor<4xi32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.xor across dimensions = [1] : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
})");
  REQUIRE(xored.main.ops[0].body());
  CHECK(xored.main.ops[0].body()->ops.at(0).kind == OpKind::Xor);
  CHECK_FALSE(simpleReducer(xored.main.ops[0]).has_value());
  Graph generic = importVerified(R"(
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %c: tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0:2 = "stablehlo.reduce"(%x, %i, %z, %c) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %1 = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.add"(%ai, %bi) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%1, %2) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
})");
  REQUIRE(generic.main.ops[0].body());
  CHECK(generic.type(generic.main.ops[0].results[1]) == TensorType{ElementType::I32, {8}});
}

TEST_CASE("optimization_barrier: operands pass through as results") {
  Graph graph = importVerified(R"(
func.func @main(%a: tensor<8xf32>, %b: tensor<4xi32>) -> (tensor<8xf32>, tensor<4xi32>) {
  %0:2 = stablehlo.optimization_barrier %a, %b : tensor<8xf32>, tensor<4xi32>
  return %0#0, %0#1 : tensor<8xf32>, tensor<4xi32>
})");
  const Op &barrier = graph.main.ops.at(0);
  CHECK(barrier.kind == OpKind::OptimizationBarrier);
  CHECK(graph.type(barrier.results[1]) == TensorType{ElementType::I32, {4}});
}

TEST_CASE("dynamic_slice and dynamic_update_slice as JAX prints them, and generic") {
  const std::string pretty = R"(
func.func @main(%x: tensor<4x6xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<2x3xf32>, tensor<4x6xf32>) {
  %r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %w = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  return %r, %w : tensor<2x3xf32>, tensor<4x6xf32>
}
)";
  Graph graph = importVerified(pretty);
  REQUIRE(graph.main.ops.size() == 2);
  CHECK(graph.main.ops[0].attr<DynamicSliceAttrs>().sliceSizes == std::vector<int64_t>{2, 3});
  CHECK(graph.main.ops[0].operands.size() == 3);
  CHECK(graph.main.ops[1].kind == OpKind::DynamicUpdateSlice);
  CHECK(graph.main.ops[1].operands.size() == 4);
  const std::string written = writeMlir(graph, MlirForm::Pretty);
  CHECK(written.find("stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x6xf32>, "
                     "tensor<i32>, tensor<i32>) -> tensor<2x3xf32>") != std::string::npos);
  CHECK(written.find("stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<4x6xf32>, "
                     "tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>") !=
        std::string::npos);
  const std::string generic = writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("slice_sizes = array<i64: 2, 3>") != std::string::npos);

  // The interpreter tests' generic form, and the older dense attribute.
  for (const char *sizes : {"array<i64: 3, 3>", "dense<[3, 3]> : tensor<2xi64>"}) {
    Graph g = importVerified(R"(
func.func @main(%x: tensor<3x3xi64>, %i: tensor<i64>) -> tensor<3x3xi64> {
  %r = "stablehlo.dynamic_slice"(%x, %i, %i) {slice_sizes = )" +
                             std::string(sizes) +
                             R"(} : (tensor<3x3xi64>, tensor<i64>, tensor<i64>) -> tensor<3x3xi64>
  return %r : tensor<3x3xi64>
}
)");
    CHECK(g.main.ops[0].attr<DynamicSliceAttrs>().sliceSizes == std::vector<int64_t>{3, 3});
  }
}

TEST_CASE("gather and scatter as JAX prints them, the interpreter tests' form, and generic") {
  const std::string jax = R"(
func.func public @main(%arg0: tensor<32x8xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32x8xf32>) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<32x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %2 = stablehlo.add %arg3, %arg4 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<32x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<32x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<32x8xf32>
}
)";
  Graph graph = importVerified(jax);
  REQUIRE(graph.main.ops.size() == 2);
  const auto &gather = graph.main.ops[0].attr<GatherAttrs>();
  CHECK(gather.dimensionNumbers.offsetDims == std::vector<int64_t>{1});
  CHECK(gather.dimensionNumbers.collapsedSliceDims == std::vector<int64_t>{0});
  CHECK(gather.dimensionNumbers.startIndexMap == std::vector<int64_t>{0});
  CHECK(gather.dimensionNumbers.indexVectorDim == 1);
  CHECK(gather.sliceSizes == std::vector<int64_t>{1, 8});
  CHECK_FALSE(gather.indicesAreSorted);
  const Op &scatter = graph.main.ops[1];
  CHECK(scatter.attr<ScatterAttrs>().indicesAreSorted);
  CHECK(scatter.attr<ScatterAttrs>().uniqueIndices);
  CHECK(scatter.attr<ScatterAttrs>().dimensionNumbers.updateWindowDims == std::vector<int64_t>{1});
  REQUIRE(scatter.body() != nullptr);
  CHECK(scatter.body()->pointer == "/ops/1/update_computation");
  CHECK(simpleReducer(scatter) == Reducer::Add);
  // Written back as JAX prints them, in both forms.
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    const std::string written = writeMlir(graph, form);
    CHECK(
        written.find(
            R"("stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<32x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>)") !=
        std::string::npos);
    CHECK(
        written.find(
            R"("stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({)") !=
        std::string::npos);
    CHECK(written.find(form == MlirForm::Pretty
                           ? "stablehlo.add %arg3, %arg4 : tensor<f32>"
                           : "\"stablehlo.add\"(%arg3, %arg4)") != std::string::npos);
  }

  // The interpreter tests' form: attributes in a dictionary after the
  // region, the dimension numbers over several lines, batching dims.
  Graph interpreted = importVerified(R"(
func.func @main(%operand: tensor<2x3x4x2xi64>, %indices: tensor<2x2x3x2xi64>, %updates: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %result = "stablehlo.scatter"(%operand, %indices, %updates) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  return %result : tensor<2x3x4x2xi64>
}
)");
  const auto &numbers = interpreted.main.ops.at(0).attr<ScatterAttrs>().dimensionNumbers;
  CHECK(numbers.inputBatchingDims == std::vector<int64_t>{0});
  CHECK(numbers.scatterIndicesBatchingDims == std::vector<int64_t>{1});
  CHECK(numbers.scatterDimsToOperandDims == std::vector<int64_t>{2, 1});
  CHECK(numbers.indexVectorDim == 3);

  // StableHLO's printer leaves out fields that are 0 or []: JAX's
  // jnp.ndarray.at[i].add with scalar indices (index_vector_dim = 0).
  Graph omitted = importVerified(R"(
func.func @main(%x: tensor<5xf32>, %i: tensor<i32>, %u: tensor<f32>) -> tensor<5xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<i32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
)");
  const auto &defaults = omitted.main.ops.at(0).attr<ScatterAttrs>().dimensionNumbers;
  CHECK(defaults.indexVectorDim == 0);
  CHECK(defaults.updateWindowDims.empty());
}

TEST_CASE("gather and scatter errors name the MLIR place") {
  // index_vector_dim past the indices' rank: at the dimension numbers.
  auto [place, message] = errorOf(R"(
func.func @main(%x: tensor<5x8xf32>, %i: tensor<4x1xi32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<5x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
)");
  CHECK(place == "3:57"); // the #stablehlo.gather attribute
  CHECK(message.find("index_vector_dim 3 is out of range [0, 2]") != std::string::npos);
  // An unknown field of #stablehlo.scatter.
  auto [place2, message2] = errorOf(R"(
func.func @main(%x: tensor<5xf32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<window_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<5xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
)");
  CHECK(place2.find("3:") == 0);
  CHECK(message2.find("unknown field 'window_dims' in #stablehlo.scatter") != std::string::npos);
  // The update computation's argument of the wrong type: at the argument.
  auto [place3, message3] = errorOf(R"(
func.func @main(%x: tensor<5xf32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<5xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
)");
  CHECK(place3.find("4:") == 0);
  CHECK(message3.find("update_computation argument 1 has type tensor<i32>, expected tensor<f32>") !=
        std::string::npos);
}

TEST_CASE("sort as JAX prints it (jnp.argsort: values and iota, LT TOTALORDER), both forms") {
  const std::string jax = R"(
func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %2 = stablehlo.compare  LT, %arg1, %arg2,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %1#0, %1#1 : tensor<4x8xf32>, tensor<4x8xi32>
}
)";
  Graph graph = importVerified(jax);
  const Op &sort = opAt(graph, 1);
  REQUIRE(sort.kind == OpKind::Sort);
  CHECK(sort.attr<SortAttrs>().dimension == 1);
  CHECK(sort.attr<SortAttrs>().isStable);
  REQUIRE(sort.body() != nullptr);
  CHECK(sort.body()->args.size() == 4);
  CHECK(sort.body()->pointer == "/ops/1/comparator");
  CHECK(sort.body()->ops[0].attr<CompareAttrs>().totalOrder());
  const std::string written = writeMlir(graph, MlirForm::Pretty);
  CHECK(
      written.find("\"stablehlo.sort\"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({") !=
      std::string::npos);
  CHECK(written.find("stablehlo.compare  LT, %arg1, %arg2,  TOTALORDER") != std::string::npos);
  // Round trips in both forms print the same text again.
  CHECK(writeMlir(importVerified(written), MlirForm::Pretty) == written);
  const std::string generic = writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("compare_type = #stablehlo<comparison_type TOTALORDER>") != std::string::npos);
  CHECK(writeMlir(importVerified(generic), MlirForm::Generic) == generic);

  // The interpreter tests' form: attributes in a dictionary, is_stable and
  // the compare type left out (the element type's).
  Graph plain = importVerified(R"(
func.func @main(%x: tensor<5x7xi64>) -> tensor<5x7xi64> {
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<5x7xi64>) -> tensor<5x7xi64>
  return %r : tensor<5x7xi64>
}
)");
  CHECK(opAt(plain, 0).attr<SortAttrs>().dimension == 0);
  CHECK_FALSE(opAt(plain, 0).attr<SortAttrs>().isStable);
  CHECK_FALSE(opAt(plain, 0).body()->ops[0].attr<CompareAttrs>().compareTypeGiven);
}

TEST_CASE("chlo.top_k as JAX prints it, and generic") {
  Graph graph = importVerified(R"(
func.func public @main(%arg0: tensor<3x16xf32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {
  %values, %indices = chlo.top_k(%arg0, k = 5) : tensor<3x16xf32> -> (tensor<3x5xf32>, tensor<3x5xi32>)
  return %values, %indices : tensor<3x5xf32>, tensor<3x5xi32>
}
)");
  const Op &topK = opAt(graph, 0);
  REQUIRE(topK.kind == OpKind::TopK);
  CHECK(topK.attr<TopKAttrs>().k == 5);
  CHECK(graph.type(topK.results[1]) == TensorType{ElementType::I32, {3, 5}});
  const std::string written = writeMlir(graph, MlirForm::Pretty);
  CHECK(written.find("chlo.top_k(%arg0, k = 5) {shardgen.result_names = [\"values\", "
                     "\"indices\"]} : tensor<3x16xf32> -> (tensor<3x5xf32>, tensor<3x5xi32>)") !=
        std::string::npos);
  CHECK(writeMlir(importVerified(written), MlirForm::Pretty) == written);
  const std::string generic = writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("\"chlo.top_k\"(%arg0) <{k = 5 : i64}>") != std::string::npos);
  CHECK(writeMlir(importVerified(generic), MlirForm::Generic) == generic);
  // is_stable (chlo's default true) read in both forms; stablehlo.top_k is no op.
  Graph unstable = importVerified(R"(
func.func @main(%x: tensor<8xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %v:2 = "chlo.top_k"(%x) <{is_stable = false, k = 2 : i64}> : (tensor<8xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  return %v#0, %v#1 : tensor<2xi32>, tensor<2xi32>
}
)");
  CHECK_FALSE(opAt(unstable, 0).attr<TopKAttrs>().isStable);
  CHECK(errorOf(R"(
func.func @main(%x: tensor<8xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %v:2 = "stablehlo.top_k"(%x) <{k = 2 : i64}> : (tensor<8xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  return %v#0, %v#1 : tensor<2xi32>, tensor<2xi32>
}
)")
            .second.find("is not supported") != std::string::npos);
}

TEST_CASE("complex values: JAX's dense pairs, real, imag, complex and abs; both forms round-trip") {
  const std::string jax = R"(
module @jit_f {
  func.func public @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<complex<f64>>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<2xcomplex<f32>>
    %cst = stablehlo.constant dense<[(1.000000e+00,-2.500000e+00), (0x7FC00000,0xFF800000)]> : tensor<2xcomplex<f32>>
    %1 = stablehlo.multiply %0, %cst : tensor<2xcomplex<f32>>
    %2 = stablehlo.real %1 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %3 = stablehlo.imag %1 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %4 = stablehlo.abs %1 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %5 = stablehlo.add %2, %3 : tensor<2xf32>
    %6 = stablehlo.add %5, %4 : tensor<2xf32>
    %cst_0 = stablehlo.constant dense<(3.000000e+00,4.000000e+00)> : tensor<complex<f64>>
    return %6, %1, %cst_0 : tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<complex<f64>>
  }
}
)";
  Graph graph = importVerified(jax);
  const auto &ops = graph.main.ops;
  REQUIRE(ops.size() == 9);
  CHECK(ops[0].kind == OpKind::Complex);
  const Literal c = ops[1].attr<ConstantAttrs>().expanded();
  CHECK(c.type() == TensorType{ElementType::C64, {2}});
  CHECK(c.getFloat(0) == 1.0);
  CHECK(c.getImag(0) == -2.5);
  CHECK(std::isnan(c.getFloat(1)));
  CHECK(c.getImag(1) == -INFINITY);
  CHECK(ops[3].kind == OpKind::Real);
  CHECK(ops[4].kind == OpKind::Imag);
  CHECK(graph.type(ops[5].results[0]) == TensorType{ElementType::F32, {2}});
  CHECK(ops[8].attr<ConstantAttrs>().getImag(0) == 4.0);
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    const std::string text = writeMlir(graph, form);
    CAPTURE(text);
    Graph back = importVerified(text);
    REQUIRE(back.main.ops.size() == ops.size());
    CHECK(back.main.ops[1].attr<ConstantAttrs>().elements == ops[1].attr<ConstantAttrs>().elements);
    CHECK(back.type(back.main.ops[5].results[0]) == graph.type(ops[5].results[0]));
    CHECK(writeMlir(back, form) == text);
  }
  CHECK(writeMlir(graph, MlirForm::Pretty).find("dense<[(1.0, -2.5), (0x7FC00000, 0xFF800000)]>") !=
        std::string::npos);

  CHECK(errorOf(R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2xcomplex<f32>> {
  %c = stablehlo.constant dense<[(1.0, 2.0), 3.0]> : tensor<2xcomplex<f32>>
  return %c : tensor<2xcomplex<f32>>
})")
            .second.find("expected '(' to start a complex<f32> value") != std::string::npos);
  const auto [place, message] = errorOf(R"(
func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %c = stablehlo.real %a : tensor<2xi32>
  return %c : tensor<2xi32>
})");
  CHECK(place == "3:3");
  CHECK(message.find("\"real\" requires a floating-point or complex operand, got tensor<2xi32>") !=
        std::string::npos);
}

TEST_CASE("stablehlo.rng_bit_generator as JAX prints it, and generic") {
  // JAX's form (two spaces before the algorithm, as Shardy's tests print it).
  Graph graph = importVerified(R"(
func.func public @main(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>) {
  %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  return %output_state, %output : tensor<2xui64>, tensor<4x4xui32>
}
)");
  const Op &rng = opAt(graph, 0);
  REQUIRE(rng.kind == OpKind::RngBitGenerator);
  CHECK(rng.attr<RngBitGeneratorAttrs>().rngAlgorithm == "DEFAULT");
  CHECK(graph.type(rng.results[1]) == TensorType{ElementType::UI32, {4, 4}});
  const std::string written = writeMlir(graph, MlirForm::Pretty);
  CHECK(written.find("stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT "
                     "{shardgen.result_names = [\"output_state\", \"output\"]} : "
                     "(tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)") !=
        std::string::npos);
  CHECK(writeMlir(importVerified(written), MlirForm::Pretty) == written);
  const std::string generic = writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("\"stablehlo.rng_bit_generator\"(%arg0) <{rng_algorithm = "
                     "#stablehlo<rng_algorithm DEFAULT>}>") != std::string::npos);
  CHECK(writeMlir(importVerified(generic), MlirForm::Generic) == generic);
  // The spec's generic form, attributes in a dictionary, `%r:2` results.
  Graph spec = importVerified(R"(
func.func @main(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xf32>) {
  %r:2 = "stablehlo.rng_bit_generator"(%s) {
    rng_algorithm = #stablehlo<rng_algorithm PHILOX>
  } : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xf32>)
  return %r#0, %r#1 : tensor<3xui64>, tensor<2x2xf32>
}
)");
  CHECK(opAt(spec, 0).attr<RngBitGeneratorAttrs>().algorithm() == RngAlgorithm::Philox);
  // An unknown algorithm is refused where it is written.
  const auto [where, message] = errorOf(R"(
func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>) {
  %a, %b = stablehlo.rng_bit_generator %s, algorithm = MERSENNE : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %a, %b : tensor<2xui64>, tensor<4xui32>
}
)");
  CHECK(where == "3:56");
  CHECK(message.find("unknown rng_algorithm 'MERSENNE' (expected DEFAULT, THREE_FRY or PHILOX)") !=
        std::string::npos);
  // The type rule's errors name the op's line.
  const auto [place, sizeMessage] = errorOf(R"(
func.func @main(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>) {
  %a, %b = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return %a, %b : tensor<3xui64>, tensor<4xui32>
}
)");
  CHECK(place == "3:40");
  CHECK(sizeMessage.find("with rng_algorithm THREE_FRY requires an initial_state of 2 elements, "
                         "got tensor<3xui64>") != std::string::npos);
}

TEST_CASE("8-, 6- and 4-bit floats: dense floats and hex codes, convert; both forms round-trip") {
  const std::string jax = R"(
module @jit_f {
  func.func public @main(%arg0: tensor<3xf8E4M3FN>) -> (tensor<3xf32>, tensor<3xf8E4M3FN>, tensor<2xf4E2M1FN>) {
    %cst = stablehlo.constant dense<[1.000000e-01, 0x7F, -4.480000e+02]> : tensor<3xf8E4M3FN>
    %0 = stablehlo.add %arg0, %cst : tensor<3xf8E4M3FN>
    %1 = stablehlo.convert %0 : (tensor<3xf8E4M3FN>) -> tensor<3xf32>
    %cst_0 = stablehlo.constant dense<[0x07, 5.000000e-01]> : tensor<2xf4E2M1FN>
    return %1, %0, %cst_0 : tensor<3xf32>, tensor<3xf8E4M3FN>, tensor<2xf4E2M1FN>
  }
}
)";
  Graph graph = importVerified(jax);
  const auto &ops = graph.main.ops;
  REQUIRE(ops.size() == 4);
  const Literal c = ops[0].attr<ConstantAttrs>().expanded();
  CHECK(c.type() == TensorType{ElementType::F8E4M3FN, {3}});
  CHECK(c.getFloat(0) == 0.1015625);
  CHECK(std::isnan(c.getFloat(1)));
  CHECK(c.getFloat(2) == -448);
  CHECK(ops[3].attr<ConstantAttrs>().expanded().getFloat(0) == 6);
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    const std::string text = writeMlir(graph, form);
    CAPTURE(text);
    Graph back = importVerified(text);
    REQUIRE(back.main.ops.size() == ops.size());
    CHECK(back.main.ops[0].attr<ConstantAttrs>().elements == ops[0].attr<ConstantAttrs>().elements);
    CHECK(back.main.ops[3].attr<ConstantAttrs>().elements == ops[3].attr<ConstantAttrs>().elements);
    CHECK(writeMlir(back, form) == text);
  }
  CHECK(writeMlir(graph, MlirForm::Pretty).find("dense<[0.1015625, 0x7F, -448.0]>") !=
        std::string::npos);
  // An f4 code has 4 bits; a value that rounds to NaN is out of range.
  CHECK(errorOf(R"(
func.func @main(%a: tensor<f32>) -> tensor<f4E2M1FN> {
  %c = stablehlo.constant dense<0x1F> : tensor<f4E2M1FN>
  return %c : tensor<f4E2M1FN>
})")
            .second.find("0x1F does not fit f4E2M1FN") != std::string::npos);
  CHECK(errorOf(R"(
func.func @main(%a: tensor<f32>) -> tensor<f8E4M3FN> {
  %c = stablehlo.constant dense<1000.0> : tensor<f8E4M3FN>
  return %c : tensor<f8E4M3FN>
})")
            .second.find("1000.0 is out of range for f8E4M3FN") != std::string::npos);
}

TEST_CASE("a scatter of two inputs as JAX prints it (argmax by scatter), both forms") {
  const std::string jax = R"(
func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xi32>, %arg2: tensor<5x1xi32>, %arg3: tensor<5x6xf32>, %arg4: tensor<5x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>) {
  %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<i32>):
    %1 = stablehlo.compare  GE, %arg5, %arg7,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %arg5, %arg7 : tensor<i1>, tensor<f32>
    %3 = stablehlo.select %1, %arg6, %arg8 : tensor<i1>, tensor<i32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
  }) : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<5x1xi32>, tensor<5x6xf32>, tensor<5x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
  return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xi32>
}
)";
  Graph graph = importVerified(jax);
  REQUIRE(graph.main.ops.size() == 1);
  const Op &scatter = graph.main.ops[0];
  CHECK(scatter.operands.size() == 5);
  CHECK(scatter.results.size() == 2);
  CHECK(graph.type(scatter.results[1]).elementType == ElementType::I32);
  REQUIRE(scatter.body() != nullptr);
  CHECK(scatter.body()->args.size() == 4);
  CHECK(scatter.body()->results.size() == 2);
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    const std::string written = writeMlir(graph, form);
    INFO(written);
    CHECK(
        written.find(
            R"(:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({)") !=
        std::string::npos);
    CHECK(
        written.find(
            R"(: (tensor<4x6xf32>, tensor<4x6xi32>, tensor<5x1xi32>, tensor<5x6xf32>, tensor<5x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>))") !=
        std::string::npos);
    // And read back to the same graph.
    Graph again = importVerified(written);
    REQUIRE(again.main.ops.size() == 1);
    CHECK(again.main.ops[0].results.size() == 2);
    CHECK(again.main.ops[0].body()->args.size() == 4);
  }
}

TEST_CASE("a scatter of two inputs: errors name the MLIR place") {
  // The updates differ in shape: at the operand list's line.
  auto [place, message] = errorOf(R"(
func.func @main(%x: tensor<5xf32>, %y: tensor<5xi32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %v: tensor<3xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %c, %d : tensor<f32>, tensor<i32>
  }) : (tensor<5xf32>, tensor<5xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<3xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %0#0, %0#1 : tensor<5xf32>, tensor<5xi32>
}
)");
  CHECK(place.find("3:") == 0);
  CHECK(message.find("requires updates of one shape, got tensor<2xf32> and tensor<3xi32>") !=
        std::string::npos);
  // A body returning one value for two inputs: at the body's return.
  auto [place2, message2] = errorOf(R"(
func.func @main(%x: tensor<5xf32>, %y: tensor<5xi32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %v: tensor<2xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %c : tensor<f32>
  }) : (tensor<5xf32>, tensor<5xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %0#0, %0#1 : tensor<5xf32>, tensor<5xi32>
}
)");
  CHECK(place2.find("5:") == 0);
  CHECK(message2.find("update_computation returns 1 values, expected 2") != std::string::npos);
}

TEST_CASE("a sharding_constraint of a scalar in a scatter's body is its operand") {
  // Shardy's basic_propagation.mlir @scalar_block_arg_with_sharding_constraint.
  const std::string body = R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4x8xi32>, %i: tensor<4x1xi32>, %u: tensor<4xi32>) -> tensor<4x8xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = sdy.sharding_constraint %a <@mesh, CONSTRAINT> : tensor<i32>
    %2 = stablehlo.add %1, %b : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }) : (tensor<4x8xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}
)";
  auto with = [&](const std::string &constraint) {
    std::string text = body;
    text.replace(text.find("CONSTRAINT"), 10, constraint);
    return text;
  };
  Graph graph = importVerified(with("[]"));
  const Region &update = opAt(graph, 0).regions[0];
  REQUIRE(update.ops.size() == 1);
  CHECK(update.ops[0].kind == OpKind::Add);
  CHECK(update.ops[0].operands[0] == update.args[0].value);
  // Unreduced axes would be a sum over devices: refused where written.
  auto [place, message] = errorOf(with(R"([], unreduced={"a"})"));
  CHECK(place == "6:5");
  CHECK(message.find("must be of a scalar, without unreduced axes") != std::string::npos);
}

namespace {

/// y = (x * x) resharded by `reshard` (an `sdy.reshard` or a
/// `sdy.sharding_constraint`, pretty or generic), then y + y.
std::string reshardModule(const std::string &reshard) {
  return R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x4xf32>
  )" + reshard +
         R"(
  %2 = stablehlo.add %1, %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
)";
}

/// The propagated sharding of op `i`'s result.
std::string propagatedSharding(Graph &graph, size_t i) {
  applyPropagation(graph, propagateShardings(graph, PropagationStrategy::UserPriority));
  const auto &sharding = graph.main.ops.at(i).shardings[0];
  return sharding ? printSharding(*sharding) : "(none)";
}

} // namespace

TEST_CASE("sdy.reshard: the identity to its sharding, which propagation passes in neither "
          "direction (a barrier that lets nothing through, then a sharding constraint)") {
  const std::string pretty = R"(%1 = sdy.reshard %0 <@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>)";
  const std::string generic =
      R"(%1 = "sdy.reshard"(%0) <{sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}> : )"
      R"((tensor<8x4xf32>) -> tensor<8x4xf32>)";
  for (const std::string &form : {pretty, generic}) {
    CAPTURE(form);
    Graph graph = importVerified(reshardModule(form));
    REQUIRE(graph.main.ops.size() == 4);
    const Op &barrier = opAt(graph, 1), &constraint = opAt(graph, 2);
    CHECK(barrier.kind == OpKind::PropagationBarrier);
    CHECK(barrier.attr<PropagationBarrierAttrs>().allowedDirection == BarrierDirection::None);
    CHECK(barrier.operands[0] == opAt(graph, 0).results[0]);
    CHECK(constraint.kind == OpKind::ShardingConstraint);
    CHECK(constraint.operands[0] == barrier.results[0]);
    CHECK(printSharding(*constraint.shardings[0]) == R"(<@mesh, [{"x"}, {"y"}]>)");
    CHECK(graph.value(constraint.results[0]).name == "1");
    CHECK(opAt(graph, 3).operands[0] == constraint.results[0]);
    // The product stays unsharded; the sum takes the reshard's sharding.
    CHECK(propagatedSharding(graph, 0).find("\"x\"") == std::string::npos);
    CHECK(printSharding(*opAt(graph, 3).shardings[0]).starts_with(R"(<@mesh, [{"x")"));
  }
  // A sharding constraint instead: its sharding reaches the product too.
  Graph constrained = importVerified(reshardModule(
      R"(%1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>)"));
  CHECK(propagatedSharding(constrained, 0).starts_with(R"(<@mesh, [{"x")"));

  auto [place, message] = errorOf(
      reshardModule(R"(%1 = "sdy.reshard"(%0, %0) <{sharding = #sdy.sharding<@mesh, [{}, {}]>}> : )"
                    R"((tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>)"));
  CHECK(place == "4:3");
  CHECK(message == "'sdy.reshard' takes one operand and gives one result");
}

TEST_CASE("annotate_device_placement (jax.device_put to a memory kind inside jit) reads as the "
          "identity, pretty and generic") {
  auto module = [](const std::string &placement) {
    return R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, mhlo.memory_kind = "pinned_host"}) -> tensor<8x4xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x4xf32>
  )" + placement +
           R"(
  return %1 : tensor<8x4xf32>
}
)";
  };
  for (
      const std::string &form :
      {std::string(
           R"(%1 = stablehlo.custom_call @annotate_device_placement(%0) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<8x4xf32>) -> tensor<8x4xf32>)"),
       std::string(
           R"(%1 = "stablehlo.custom_call"(%0) <{api_version = 1 : i32, call_target_name = "annotate_device_placement", has_side_effect = true}> {mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<8x4xf32>) -> tensor<8x4xf32>)")}) {
    CAPTURE(form);
    Graph graph = importVerified(module(form));
    REQUIRE(graph.main.ops.size() == 1);
    CHECK(graph.main.results.at(0).value == opAt(graph, 0).results[0]);
  }
  auto [place, message] = errorOf(module(
      R"(%1 = stablehlo.custom_call @annotate_device_placement(%0) {backend_config = "x"} : (tensor<8x4xf32>) -> tensor<8x4xf32>)"));
  CHECK(place == "4:79");
  CHECK(message == "annotate_device_placement takes no backend_config");
  std::tie(place, message) = errorOf(module(
      R"(%1 = stablehlo.custom_call @annotate_device_placement(%0, %0) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>)"));
  CHECK(place == "4:3");
  CHECK(message == "'stablehlo.custom_call' takes one value and defines one");
}

TEST_CASE("stablehlo.fft as JAX prints it, and generic") {
  // JAX's form (two spaces before the type, as jax.jit(...).as_text() prints it).
  Graph graph = importVerified(R"(
func.func public @main(%arg0: tensor<3x8xf32>) -> (tensor<3x8xf32>) {
  %0 = stablehlo.fft %arg0, type =  RFFT, length = [8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  %1 = stablehlo.fft %0, type =  IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}
)");
  const Op &rfft = opAt(graph, 0);
  REQUIRE(rfft.kind == OpKind::Fft);
  CHECK(rfft.attr<FftAttrs>().fftType == "RFFT");
  CHECK(rfft.attr<FftAttrs>().fftLength == std::vector<int64_t>{8});
  CHECK(graph.type(rfft.results[0]) == TensorType{ElementType::C64, {3, 5}});
  CHECK(opAt(graph, 1).attr<FftAttrs>().type() == FftType::Irfft);
  const std::string written = writeMlir(graph, MlirForm::Pretty);
  CHECK(written.find("stablehlo.fft %arg0, type = RFFT, length = [8] : (tensor<3x8xf32>) -> "
                     "tensor<3x5xcomplex<f32>>") != std::string::npos);
  CHECK(writeMlir(importVerified(written), MlirForm::Pretty) == written);
  const std::string generic = writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("\"stablehlo.fft\"(%arg0) <{fft_length = array<i64: 8>, fft_type = "
                     "#stablehlo<fft_type RFFT>}>") != std::string::npos);
  CHECK(writeMlir(importVerified(generic), MlirForm::Generic) == generic);
  // The spec's generic form, attributes in a dictionary.
  Graph spec = importVerified(R"(
func.func @main(%operand: tensor<2x4x4xcomplex<f64>>) -> tensor<2x4x4xcomplex<f64>> {
  %result = "stablehlo.fft"(%operand) {
    fft_type = #stablehlo<fft_type IFFT>,
    fft_length = array<i64: 4, 4>
  } : (tensor<2x4x4xcomplex<f64>>) -> tensor<2x4x4xcomplex<f64>>
  return %result : tensor<2x4x4xcomplex<f64>>
}
)");
  CHECK(opAt(spec, 0).attr<FftAttrs>().type() == FftType::Ifft);
  CHECK(opAt(spec, 0).attr<FftAttrs>().fftLength == std::vector<int64_t>{4, 4});
  // An unknown type is refused where it is written, a result type the
  // type rule does not infer at that type.
  const auto [where, message] = errorOf(R"(
func.func @main(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = DFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
)");
  CHECK(where == "3:33");
  CHECK(message.find("unknown fft_type 'DFT' (expected FFT, IFFT, RFFT or IRFFT)") !=
        std::string::npos);
  const auto [place, lengthMessage] = errorOf(R"(
func.func @main(%x: tensor<8xf64>) -> tensor<8xcomplex<f64>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf64>) -> tensor<8xcomplex<f64>>
  return %0 : tensor<8xcomplex<f64>>
}
)");
  CHECK(place == "3:73"); // the result type
  CHECK(lengthMessage.find("does not match the inferred type tensor<5xcomplex<f64>>") !=
        std::string::npos);
}
