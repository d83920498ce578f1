// RUN: sdy_opt %s -split-input-file -sdy-basic-propagate | FileCheck %s
//
// Written with Shardy's RUN line: the runner maps `sdy_opt
// -sdy-basic-propagate` onto `shardgen propagate --format mlir --strategy
// basic` and cuts the file at `// -----`, each part with its own mesh, as
// sdy_opt's -split-input-file does. Sharding groups (Shardy's
// sharding_group_propagation.mlir, functions named in the comments).

sdy.mesh @m = <["x"=2, "y"=2, "z"=2, "w"=2]>

// A group gives every member the sharding of highest priority
// (sharding_group_propagation: shard_as_reflects_user_priority). Members are
// SSA-numbered, as in Shardy: shardgen orders group members by name, which
// for numbered names is Shardy's program order (compiler/propagate/README.md).
// CHECK-LABEL: func @group_takes_highest_priority(
func.func @group_takes_highest_priority(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}p0, {"z", ?}]>},
                                        %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", "x", ?}p1, {"y", ?}]>})
    -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[AA:.*]] = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {"z", ?}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %[[BB:.*]] = stablehlo.add %b, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {"z", ?}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: stablehlo.add %[[AA]], %[[BB]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {"z", ?}]>]>} : tensor<8x8xf32>
  %0 = stablehlo.add %a, %a : tensor<8x8xf32>
  %1 = stablehlo.add %b, %b : tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id = 0 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id = 0 : tensor<8x8xf32>
  sdy.sharding_group %2 group_id = 0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----
sdy.mesh @m = <["x"=2, "y"=2]>

// A second part: a module of its own, whose @m is another mesh than the
// first part's.
// CHECK-LABEL: func @second_part(
// CHECK-SAME: -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}, {?}]>}) {
func.func @second_part(%in: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<4x8xf32> {
  // CHECK-NEXT: stablehlo.negate %in {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y", ?}, {?}]>]>} : tensor<4x8xf32>
  %0 = stablehlo.negate %in : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
