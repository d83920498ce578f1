// RUN: shardgen propagate %s --format mlir --strategy basic | FileCheck %s
//
// Manual computations: free axes cross the body's boundary both ways, into
// the in/out shardings' open dims (Shardy's
// basic_propagation_manual_computation.mlir, functions named in the comments).

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// A free axis found inside the body goes out to the operand and the
// in_sharding (basic_propagation_manual_computation: append_in_sharding_from_inside).
// CHECK-LABEL: func @free_axis_leaves_body(
// CHECK-SAME: %in: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", "x", ?}, {?}]>})
// CHECK-SAME: -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}, {?}]>}) {
func.func @free_axis_leaves_body(%in: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // CHECK: sdy.manual_computation(%in)
  // CHECK-SAME{LITERAL}: in_shardings=[<@m, [{"y", "x", ?}, {?}]>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@m, [{"y", ?}, {?}]>]
  // CHECK-SAME{LITERAL}: manual_axes={"y"} (%local: tensor<16x32xf32>) {
  %out = sdy.manual_computation(%in) in_shardings=[<@m, [{"y", ?}, {?}]>] out_shardings=[<@m, [{"y", ?}, {?}]>] manual_axes={"y"} (%local: tensor<16x32xf32>) {
    %twice = stablehlo.add %local, %local {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>} : tensor<16x32xf32>
    %opaque = stablehlo.custom_call @opaque(%twice) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    sdy.return %opaque : tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %out : tensor<32x32xf32>
}

// A closed in/out dim keeps the inside's free axis out
// (basic_propagation_manual_computation: dont_propagate_into_closed_dim_from_inside).
// CHECK-LABEL: func @closed_boundary_dim(
// CHECK-SAME: %in: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}, {?}]>})
// CHECK-SAME: -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}, {?}]>}) {
func.func @closed_boundary_dim(%in: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // CHECK: sdy.manual_computation(%in)
  // CHECK-SAME{LITERAL}: in_shardings=[<@m, [{"y"}, {?}]>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@m, [{"y"}, {?}]>]
  // CHECK-SAME{LITERAL}: manual_axes={"y"} (%local: tensor<16x32xf32>) {
  %out = sdy.manual_computation(%in) in_shardings=[<@m, [{"y"}, {?}]>] out_shardings=[<@m, [{"y"}, {?}]>] manual_axes={"y"} (%local: tensor<16x32xf32>) {
    %twice = stablehlo.add %local, %local {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>} : tensor<16x32xf32>
    sdy.return %twice : tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %out : tensor<32x32xf32>
}

// A free axis replicated on the boundary stays replicated there and is not
// propagated through (basic_propagation_manual_computation: replicated_free_axes).
// CHECK-LABEL: func @replicated_free_axis(
// CHECK-SAME: %in: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", "x", ?}, {?}]>})
// CHECK-SAME: -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", "x", ?}, {?}]>}) {
func.func @replicated_free_axis(%in: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // CHECK: %[[BEFORE:.*]] = stablehlo.add %in, %in {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y", "x", ?}, {?}]>]>} : tensor<32x32xf32>
  %before = stablehlo.add %in, %in : tensor<32x32xf32>
  // CHECK: %[[MANUAL:.*]] = sdy.manual_computation(%[[BEFORE]])
  // CHECK-SAME{LITERAL}: in_shardings=[<@m, [{"y", "x", ?}, {?}], replicated={"z"}>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@m, [{"y", "x", ?}, {?}], replicated={"z"}>]
  // CHECK-SAME{LITERAL}: manual_axes={"y"} (%local: tensor<16x32xf32>) {
  %manual = sdy.manual_computation(%before) in_shardings=[<@m, [{"y", ?}, {?}], replicated={"z"}>] out_shardings=[<@m, [{"y", ?}, {?}], replicated={"z"}>] manual_axes={"y"} (%local: tensor<16x32xf32>) {
    %twice = stablehlo.add %local, %local {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>} : tensor<16x32xf32>
    sdy.return %twice : tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  // CHECK: stablehlo.add %[[MANUAL]], %[[MANUAL]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y", "x", ?}, {?}]>]>} : tensor<32x32xf32>
  %after = stablehlo.add %manual, %manual : tensor<32x32xf32>
  return %after : tensor<32x32xf32>
}
