// RUN: shardgen propagate %s --format mlir --strategy basic | FileCheck %s
//
// Tokens (basic_propagation.mlir, basic_propagation_data_flow_edges.mlir):
// a `!stablehlo.token` argument, result or carried value gets no sharding;
// the tensors beside it propagate as without it. Shardy's sdy.data_flow_edge
// is read as the value it wraps, its sharding on the op's result.

sdy.mesh @m = <["a"=2, "b"=2]>

// CHECK-LABEL: func @token_func_output_skipped(
// CHECK-SAME: %arg0: !stablehlo.token,
// CHECK-SAME: %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", ?}, {"b", ?}]>})
// CHECK-SAME: -> (!stablehlo.token, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>}) {
func.func @token_func_output_skipped(%arg0: !stablehlo.token, %arg1: tensor<8x16xf32>)
    -> (!stablehlo.token, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>}) {
  // CHECK-NEXT: stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a", ?}, {"b", ?}]>]>}
  %0 = stablehlo.add %arg1, %arg1 : tensor<8x16xf32>
  return %arg0, %0 : !stablehlo.token, tensor<8x16xf32>
}

// A case returning a token and a tensor: the tensor's sharding reaches the
// other branch's argument through the result (case_token_result_skipped).
// CHECK-LABEL: func @case_token_result_skipped(
// CHECK-SAME: %arg0: tensor<i32>, %arg1: !stablehlo.token, %arg2: !stablehlo.token,
// CHECK-SAME: %arg3: tensor<4xi64> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>},
// CHECK-SAME: %arg4: tensor<4xi64> {sdy.sharding = #sdy.sharding<@m, [{"a", ?}]>})
// CHECK-SAME: -> (!stablehlo.token, tensor<4xi64> {sdy.sharding = #sdy.sharding<@m, [{"a", ?}]>})
func.func @case_token_result_skipped(%arg0: tensor<i32>, %arg1: !stablehlo.token, %arg2: !stablehlo.token,
                                     %arg3: tensor<4xi64> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>},
                                     %arg4: tensor<4xi64>) -> (!stablehlo.token, tensor<4xi64>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg3 : !stablehlo.token, tensor<4xi64>
  }, {
    stablehlo.return %arg2, %arg4 : !stablehlo.token, tensor<4xi64>
  }) : (tensor<i32>) -> (!stablehlo.token, tensor<4xi64>)
  %1 = sdy.data_flow_edge %0#1 : tensor<4xi64>
  return %0#0, %1 : !stablehlo.token, tensor<4xi64>
}
