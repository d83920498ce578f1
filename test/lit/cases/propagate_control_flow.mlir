// RUN: shardgen propagate %s --format mlir --strategy basic | FileCheck %s
//
// Shardy's data-flow edges (basic_propagation_data_flow_edges.mlir) printed
// in Shardy's form: a while result, its operand, the regions' arguments and
// the body's returned value share one sharding; a case result and each
// branch's returned value too. shardgen writes the sharding on the op's
// result (Shardy on its sdy.data_flow_edge).

sdy.mesh @m = <["a"=2, "b"=2]>

// A func argument's sharding goes through the loop to the body's ops and
// the result (while_func_operand).
// CHECK-LABEL: func @while_func_operand(
// CHECK-SAME: %arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>})
// CHECK-SAME: -> (tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", ?}, {"b", ?}]>}) {
func.func @while_func_operand(%arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>}) -> tensor<32x96xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant dense<1> : tensor<i32>
  %2 = stablehlo.constant dense<32> : tensor<i32>
  // CHECK: stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32> attributes {shardgen.result_shardings = [#sdy.sharding<@m, [{"a", ?}, {"b", ?}]>, unit]}
  %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32>
   cond {
    %4 = stablehlo.compare LT, %iterArg_0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg_0, %1 : tensor<i32>
    // CHECK: stablehlo.add %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a", ?}, {"b", ?}]>]>}
    %5 = stablehlo.add %iterArg, %iterArg : tensor<32x96xf32>
    stablehlo.return %5, %4 : tensor<32x96xf32>, tensor<i32>
  }
  return %3#0 : tensor<32x96xf32>
}

// The branches' returned values meet at the result: the most compatible
// major axes win (case_single_result_func_args_conflict).
// CHECK-LABEL: func @case_conflict(
func.func @case_conflict(%arg0: tensor<i32>, %arg1: tensor<8xi64> {sdy.sharding = #sdy.sharding<@m, [{"a", "b"}]>}, %arg2: tensor<8xi64> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>}) -> tensor<8xi64> {
  // CHECK: "stablehlo.case"(%arg0) ({
  // CHECK: }) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a", ?}]>]>} : (tensor<i32>) -> tensor<8xi64>
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<8xi64>
  }, {
    stablehlo.return %arg2 : tensor<8xi64>
  }) : (tensor<i32>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}
