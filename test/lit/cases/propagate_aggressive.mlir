// RUN: shardgen propagate %s --format mlir --strategy aggressive | FileCheck %s
//
// Aggressive propagation resolves conflicts between factors (Shardy's
// aggressive_propagation.mlir, functions named in the comments).

sdy.mesh @m = <["x"=2, "y"=2]>
sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>

// Both operands want "x": the larger tensor's factor wins
// (aggressive_propagation: real_conflict_across_factors_diff_tensors_size).
// CHECK-LABEL: func @larger_operand_wins(
// CHECK-SAME: %small: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {?}]>},
// CHECK-SAME: %large: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@m3, [{?}, {"x", "z"}]>})
func.func @larger_operand_wins(%small: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {?}]>},
                               %large: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@m3, [{?}, {"x", "z"}]>})
    -> tensor<8x16xf32> {
  // CHECK-NEXT: stablehlo.dot_general %small, %large, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{?}, {"x", "z", ?}]>]>}
  %0 = stablehlo.dot_general %small, %large, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Equal sizes: the lhs factor goes first, the rhs keeps what is left
// (aggressive_propagation: prefer_lhs_factor_non_elementwise).
// CHECK-LABEL: func @lhs_first(
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {"y", ?}]>})
func.func @lhs_first(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>},
                     %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y", "x"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {"y", ?}]>]>}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A result closed and empty: nothing goes sideways from one operand to the
// other through it (aggressive_propagation: sideways_propagation_if_result_is_closed_empty).
// CHECK-LABEL: func @closed_result_blocks_sideways(
// CHECK-SAME: %other: tensor<8xf32>
// CHECK-SAME: ) -> tensor<8xf32>
func.func @closed_result_blocks_sideways(%one: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>},
                                         %other: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: stablehlo.add %one, %other {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>}
  %0 = stablehlo.add %one, %other {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
