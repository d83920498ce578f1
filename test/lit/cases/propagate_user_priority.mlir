// RUN: shardgen propagate %s --format mlir | FileCheck %s
//
// User-priority propagation (the default strategy): dims with priority p0
// go first, then p1, ...; the printed shardings have their priorities
// dropped, as Shardy's (user_priority_propagation.mlir, functions named in
// the comments).

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// The op's p0 dim beats the argument's p1 dim; the argument keeps its axes
// on the dim the op leaves open, and its closed dim
// (user_priority_propagation: arg_lower_priority_than_return_value).
// CHECK-LABEL: func @op_priority_beats_argument(
// CHECK-SAME: %a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {"y"}]>},
// CHECK-SAME: %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", ?}, {"y", ?}]>},
// CHECK-SAME: %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", ?}, {"y", ?}]>},
// CHECK-SAME: %d: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", ?}, {"y", ?}]>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", ?}, {"y", ?}]>}) {
func.func @op_priority_beats_argument(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}p1, {"y"}p1]>},
                                      %b: tensor<8x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[AB:.*]] = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"z", ?}, {"y", ?}]>]>}
  // CHECK-NEXT: %[[ABC:.*]] = stablehlo.add %[[AB]], %c {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"z", ?}, {"y", ?}]>]>}
  // CHECK-NEXT: stablehlo.divide %[[ABC]], %d {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"z"}, {"y", ?}]>]>}
  %ab = stablehlo.add %a, %b : tensor<8x8xf32>
  %abc = stablehlo.add %ab, %c : tensor<8x8xf32>
  %q = stablehlo.divide %abc, %d {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"z"}p0, {?}]>]>} : tensor<8x8xf32>
  return %q : tensor<8x8xf32>
}

// Two constraints of different priorities meet in an add: the p0 one wins
// (user_priority_propagation: different_sharding_constraint_priorities).
// CHECK-LABEL: func @constraint_priorities(
// CHECK-SAME: %a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>},
// CHECK-SAME: %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {"x", ?}]>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>}) {
func.func @constraint_priorities(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[CA:.*]] = sdy.sharding_constraint %a <@m, [{"x"}, {?}]>
  // CHECK-NEXT: %[[CB:.*]] = sdy.sharding_constraint %b <@m, [{?}, {"x"}]>
  // CHECK-NEXT: %[[BB:.*]] = stablehlo.add %[[CB]], %[[CB]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>}
  // CHECK-NEXT: stablehlo.add %[[CA]], %[[BB]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>}
  %ca = sdy.sharding_constraint %a <@m, [{"x"}p0, {?}]> : tensor<8x8xf32>
  %cb = sdy.sharding_constraint %b <@m, [{?}, {"x"}p1]> : tensor<8x8xf32>
  %bb = stablehlo.add %cb, %cb : tensor<8x8xf32>
  %sum = stablehlo.add %ca, %bb : tensor<8x8xf32>
  return %sum : tensor<8x8xf32>
}
