// RUN: shardgen propagate %s --format mlir --strategy op-priority | FileCheck %s
//
// Op-priority propagation: elementwise ops first, then the rest; forward
// before backward for broadcasts (Shardy's op_priority_propagation.mlir,
// functions named in the comments).

sdy.mesh @m = <["x"=2, "y"=2]>

// The result's sharding comes back through the adds before the argument's
// goes through the matmul (op_priority_propagation: element_wise_over_dot_general).
// CHECK-LABEL: func @elementwise_before_matmul(
// CHECK-SAME: %lhs: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>},
// CHECK-SAME: %rhs: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) {
func.func @elementwise_before_matmul(%lhs: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>},
                                     %rhs: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>}) {
  // CHECK-NEXT: %[[MM:.*]] = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>}
  // CHECK-NEXT: %[[D:.*]] = stablehlo.add %[[MM]], %[[MM]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %[[Q:.*]] = stablehlo.add %[[D]], %[[D]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[Q]] : tensor<8x8xf32>
  %mm = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %double = stablehlo.add %mm, %mm : tensor<8x8xf32>
  %quad = stablehlo.add %double, %double : tensor<8x8xf32>
  return %quad : tensor<8x8xf32>
}

// Broadcasts take the operand's sharding forward before the result's comes
// back (op_priority_propagation: broadcast_forward_higher_priority_than_backwards).
// CHECK-LABEL: func @broadcast_forward_first(
func.func @broadcast_forward_first(%v: tensor<32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
    -> (tensor<32x16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}, {}]>}) {
  // CHECK-NEXT: %[[B2:.*]] = stablehlo.broadcast_in_dim %v, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}]>]>}
  // CHECK-NEXT: %[[B3:.*]] = stablehlo.broadcast_in_dim %[[B2]], dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{?}, {"x", ?}, {?}]>]>}
  // CHECK-NEXT: return %[[B3]]
  %b2 = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<32xf32>) -> tensor<32x16xf32>
  %b3 = stablehlo.broadcast_in_dim %b2, dims = [0, 1] : (tensor<32x16xf32>) -> tensor<32x16x8xf32>
  return %b3 : tensor<32x16x8xf32>
}
