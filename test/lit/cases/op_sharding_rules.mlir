// RUN: shardgen export %s --sharding-rules | FileCheck %s
//
// Each op's Shardy sharding rule as `export --sharding-rules` attaches it
// (what `sdy_opt -sdy-populate-op-sharding-rules` prints): size-1 dims keep
// unit factors, constants get no rule, a custom_call's own rule is marked
// `custom`. One function per op and shape, each rule a fact of the function
// of Shardy's op_sharding_rule_registry.mlir named in parentheses (the same
// facts as test/conformance/cases/op_sharding_rule_registry). That file's
// functions for ops shardgen lacks: test/lit/SKIPPED.md.

// Scalars: no factors at all (scalar_op)
// CHECK-LABEL: func @add_of_scalars(
func.func @add_of_scalars(%arg0: tensor<f32>) -> tensor<f32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>}
  %v0 = stablehlo.add %arg0, %arg0 : tensor<f32>
  return %v0 : tensor<f32>
}

// An empty dim keeps a factor of size 0 (pointwise_op_size_zero_dim)
// CHECK-LABEL: func @add_with_empty_dim(
func.func @add_with_empty_dim(%arg0: tensor<2x0x4xf32>) -> tensor<2x0x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}>}
  %v0 = stablehlo.add %arg0, %arg0 : tensor<2x0x4xf32>
  return %v0 : tensor<2x0x4xf32>
}

// Elementwise: one factor per dim, the size-1 dim too (pointwise_op)
// CHECK-LABEL: func @add_with_unit_dim(
func.func @add_with_unit_dim(%arg0: tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=1, k=4}>}
  %v0 = stablehlo.add %arg0, %arg0 : tensor<2x1x4xf32>
  return %v0 : tensor<2x1x4xf32>
}

// An expanded size-1 dim: a unit factor, then the result's (broadcast_in_dim_input_dim_expanded)
// CHECK-LABEL: func @broadcast_expands_unit_dim(
func.func @broadcast_expands_unit_dim(%arg0: tensor<2x1x13xf32>) -> tensor<2x64x13xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l])->([i, k, l]) {i=2, j=1, k=64, l=13}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<2x1x13xf32>) -> tensor<2x64x13xf32>
  return %v0 : tensor<2x64x13xf32>
}

// Every result dim is new (broadcast_in_dim_no_broadcast_dims)
// CHECK-LABEL: func @broadcast_from_scalar(
func.func @broadcast_from_scalar(%arg0: tensor<f32>) -> tensor<2x1x13xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j, k]) {i=2, j=1, k=13}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x1x13xf32>
  return %v0 : tensor<2x1x13xf32>
}

// The empty dim maps through (broadcast_in_dim_size_zero_dim)
// CHECK-LABEL: func @broadcast_keeps_empty_dim(
func.func @broadcast_keeps_empty_dim(%arg0: tensor<2x13x0xf32>) -> tensor<2x64x13x0xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=0}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 3] : (tensor<2x13x0xf32>) -> tensor<2x64x13x0xf32>
  return %v0 : tensor<2x64x13x0xf32>
}

// Permuted, expanded and new dims in one op (broadcast_in_dim_all_dim_types_in_one)
// CHECK-LABEL: func @broadcast_mixed_dims(
func.func @broadcast_mixed_dims(%arg0: tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, j, l, n])->([i, j, k, m, n, o]) {i=2, j=5, k=3, l=1, m=11, n=7, o=13}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 1, 3, 4] : (tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32>
  return %v0 : tensor<2x5x3x11x7x13xf32>
}

// A new result dim is a factor of the result only (broadcast_in_dim)
// CHECK-LABEL: func @broadcast_new_middle_dim(
func.func @broadcast_new_middle_dim(%arg0: tensor<2x13x1xf32>) -> tensor<2x64x13x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=1}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 3] : (tensor<2x13x1xf32>) -> tensor<2x64x13x1xf32>
  return %v0 : tensor<2x64x13x1xf32>
}

// Min, operand and max share every factor (clamp)
// CHECK-LABEL: func @clamp_same_shapes(
func.func @clamp_same_shapes(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.clamp %arg0, %arg1, %arg2 : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// Scalar bounds take no part (clamp_scalar_min_max)
// CHECK-LABEL: func @clamp_scalar_bounds(
func.func @clamp_scalar_bounds(%arg0: tensor<f32>, %arg1: tensor<4x8xf32>, %arg2: tensor<f32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// Pieces of coprime sizes (concat_gcd_is_one)
// CHECK-LABEL: func @concat_coprime_pieces(
func.func @concat_coprime_pieces(%arg0: tensor<4x3x256xf32>, %arg1: tensor<4x5x256xf32>) -> tensor<4x8x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x3x256xf32>, tensor<4x5x256xf32>) -> tensor<4x8x256xf32>
  return %v0 : tensor<4x8x256xf32>
}

// Two equal pieces (concat_operands_with_same_shape)
// CHECK-LABEL: func @concat_equal_pieces(
func.func @concat_equal_pieces(%arg0: tensor<4x16x256xf32>, %arg1: tensor<4x16x256xf32>) -> tensor<4x32x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=32, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x32x256xf32>
  return %v0 : tensor<4x32x256xf32>
}

// Every piece a slice: the dim permutes (concat_operands_are_results_of_slices)
// CHECK-LABEL: func @concat_of_two_slices(
func.func @concat_of_two_slices(%arg0: tensor<4x40x256xf32>, %arg1: tensor<4x60x256xf32>) -> tensor<4x80x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.slice %arg1 [0:4:1, 0:48:1, 0:256:1] : (tensor<4x60x256xf32>) -> tensor<4x48x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} permutation={j}>}
  %v2 = stablehlo.concatenate %v0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
  return %v2 : tensor<4x80x256xf32>
}

// One piece's size divides the other's (concat_gcd_is_equal_to_operand_dim)
// CHECK-LABEL: func @concat_piece_divides_other(
func.func @concat_piece_divides_other(%arg0: tensor<4x32x256xf32>, %arg1: tensor<4x16x256xf32>) -> tensor<4x48x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=48, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x16x256xf32>) -> tensor<4x48x256xf32>
  return %v0 : tensor<4x48x256xf32>
}

// Pieces with a common divisor (concat_gcd_is_greater_than_all_operand_dims)
// CHECK-LABEL: func @concat_pieces_common_divisor(
func.func @concat_pieces_common_divisor(%arg0: tensor<4x32x256xf32>, %arg1: tensor<4x48x256xf32>) -> tensor<4x80x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
  return %v0 : tensor<4x80x256xf32>
}

// One piece is no slice: the dim needs replication (concat_not_all_operands_are_results_of_slices)
// CHECK-LABEL: func @concat_slice_and_negate(
func.func @concat_slice_and_negate(%arg0: tensor<4x40x256xf32>, %arg1: tensor<4x60x256xf32>) -> tensor<4x92x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.negate %arg1 : tensor<4x60x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=92, k=256} need_replication={j}>}
  %v2 = stablehlo.concatenate %v0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x60x256xf32>) -> tensor<4x92x256xf32>
  return %v2 : tensor<4x92x256xf32>
}

// Slices of the tensor around the tensor itself: the dim permutes (concat_operands_are_from_slices_of_the_same_tensor)
// CHECK-LABEL: func @concat_slices_around_source(
func.func @concat_slices_around_source(%arg0: tensor<4x40x256xf32>) -> tensor<4x96x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.slice %arg0 [0:4:1, 0:24:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x24x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} permutation={j}>}
  %v2 = stablehlo.concatenate %v0, %arg0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x40x256xf32>, tensor<4x24x256xf32>) -> tensor<4x96x256xf32>
  return %v2 : tensor<4x96x256xf32>
}

// Slices of two tensors besides a whole one: the dim needs replication (concat_not_all_operands_are_from_slices_of_the_same_tensor)
// CHECK-LABEL: func @concat_slices_of_two_tensors(
func.func @concat_slices_of_two_tensors(%arg0: tensor<4x40x256xf32>, %arg1: tensor<4x60x256xf32>) -> tensor<4x96x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.slice %arg1 [0:4:1, 0:24:1, 0:256:1] : (tensor<4x60x256xf32>) -> tensor<4x24x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} need_replication={j}>}
  %v2 = stablehlo.concatenate %v0, %arg0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x40x256xf32>, tensor<4x24x256xf32>) -> tensor<4x96x256xf32>
  return %v2 : tensor<4x96x256xf32>
}

// A tensor with a slice of itself: the dim permutes (concat_operands_are_on_the_same_tensor_one_is_slice)
// CHECK-LABEL: func @concat_tensor_and_its_slice(
func.func @concat_tensor_and_its_slice(%arg0: tensor<4x64xbf16>) -> tensor<10x64xbf16> {
  %v0 = stablehlo.slice %arg0 [0:2:1, 0:64:1] : (tensor<4x64xbf16>) -> tensor<2x64xbf16>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=10, j=64} permutation={i}>}
  %v1 = stablehlo.concatenate %arg0, %v0, %arg0, dim = 0 : (tensor<4x64xbf16>, tensor<2x64xbf16>, tensor<4x64xbf16>) -> tensor<10x64xbf16>
  return %v1 : tensor<10x64xbf16>
}

// One tensor three times, no slice: the dim needs replication (concat_operands_are_on_the_same_tensor)
// CHECK-LABEL: func @concat_tensor_thrice(
func.func @concat_tensor_thrice(%arg0: tensor<4x64xbf16>) -> tensor<12x64xbf16> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=12, j=64} need_replication={i}>}
  %v0 = stablehlo.concatenate %arg0, %arg0, %arg0, dim = 0 : (tensor<4x64xbf16>, tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<12x64xbf16>
  return %v0 : tensor<12x64xbf16>
}

// Pieces of size 1 along the dim (concat_operands_dim_size_one)
// CHECK-LABEL: func @concat_unit_pieces(
func.func @concat_unit_pieces(%arg0: tensor<4x1x256xf32>, %arg1: tensor<4x1x256xf32>, %arg2: tensor<4x1x256xf32>) -> tensor<4x3x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=3, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 1 : (tensor<4x1x256xf32>, tensor<4x1x256xf32>, tensor<4x1x256xf32>) -> tensor<4x3x256xf32>
  return %v0 : tensor<4x3x256xf32>
}

// A custom_call's own rule, printed as the user's (custom) (unregisterd_custom_call_with_existing_rule)
// CHECK-LABEL: func @custom_call_own_rule(
func.func @custom_call_own_rule(%arg0: tensor<4x2xf32>) -> tensor<2x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>}
  %v0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return %v0 : tensor<2x4xf32>
}

// A batch dim, then free dims, then the contracted one (dot_general_batching_dims)
// CHECK-LABEL: func @dot_general_batched_matmul(
func.func @dot_general_batched_matmul(%arg0: tensor<4x8x32xf32>, %arg1: tensor<4x32x16xf32>) -> tensor<4x8x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}>}
  %v0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %v0 : tensor<4x8x16xf32>
}

// Contracting dims only (dot_general_no_batching_dims)
// CHECK-LABEL: func @dot_general_matmul(
func.func @dot_general_matmul(%arg0: tensor<8x32xf32>, %arg1: tensor<32x16xf32>) -> tensor<8x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>}
  %v0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %v0 : tensor<8x16xf32>
}

// Batch and contracting dims listed out of order on both sides (dot_general_many_mixed_dims)
// CHECK-LABEL: func @dot_general_permuted_dims(
func.func @dot_general_permuted_dims(%arg0: tensor<2x4x8x4x64x32xf32>, %arg1: tensor<16x32x64x4x2xf32>) -> tensor<2x4x8x4x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l, o, n], [m, n, o, j, i])->([i, j, k, l, m]) {i=2, j=4, k=8, l=4, m=16, n=32, o=64} reduction={n, o}>}
  %v0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 1] x [4, 3], contracting_dims = [5, 4] x [1, 2] : (tensor<2x4x8x4x64x32xf32>, tensor<16x32x64x4x2xf32>) -> tensor<2x4x8x4x16xf32>
  return %v0 : tensor<2x4x8x4x16xf32>
}

// Stablehlo.dot of two vectors: one reduction factor (dot_vector_vector)
// CHECK-LABEL: func @dot_inner_product(
func.func @dot_inner_product(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>) -> tensor<f32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([]) {i=32} reduction={i}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<32xf32>, tensor<32xf32>) -> tensor<f32>
  return %v0 : tensor<f32>
}

// Stablehlo.dot of two matrices (dot_matrix_matrix)
// CHECK-LABEL: func @dot_matmul(
func.func @dot_matmul(%arg0: tensor<8x32xf32>, %arg1: tensor<32x16xf32>) -> tensor<8x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %v0 : tensor<8x16xf32>
}

// Stablehlo.dot, vector on the right (dot_matrix_vector)
// CHECK-LABEL: func @dot_matrix_times_vector(
func.func @dot_matrix_times_vector(%arg0: tensor<8x32xf32>, %arg1: tensor<32xf32>) -> tensor<8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j])->([i]) {i=8, j=32} reduction={j}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8xf32>
  return %v0 : tensor<8xf32>
}

// Stablehlo.dot, vector on the left (dot_vector_matrix)
// CHECK-LABEL: func @dot_vector_times_matrix(
func.func @dot_vector_times_matrix(%arg0: tensor<32xf32>, %arg1: tensor<32x16xf32>) -> tensor<16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([j], [j, i])->([i]) {i=16, j=32} reduction={j}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<32xf32>, tensor<32x16xf32>) -> tensor<16xf32>
  return %v0 : tensor<16xf32>
}

// Sliced dims need replication and block propagation; the start indices
// map no factor (dynamic_slice)
// CHECK-LABEL: func @dynamic_slice_two_dims(
func.func @dynamic_slice_two_dims(%arg0: tensor<32x4x8xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<32x1x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [], [], [])->([i, j, k]) {i=32, j=4, k=8} need_replication={j, k} blocked_propagation={j, k}>}
  %v0 = stablehlo.dynamic_slice %arg0, %arg1, %arg2, %arg3, sizes = [32, 1, 2] : (tensor<32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x1x2xf32>
  return %v0 : tensor<32x1x2xf32>
}

// The operand's sliced dims pass through to the result; the update's
// own factors there need replication (dynamic_update_slice)
// CHECK-LABEL: func @dynamic_update_slice_two_dims(
func.func @dynamic_update_slice_two_dims(%arg0: tensor<32x4x8xf32>, %arg1: tensor<32x1x2xf32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>) -> tensor<32x4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2} need_replication={k, m}>}
  %v0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3, %arg4 : (tensor<32x4x8xf32>, tensor<32x1x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x4x8xf32>
  return %v0 : tensor<32x4x8xf32>
}

// Constant start indices: the update's factors pass through
// (dynamic_update_slice_constant_indices)
// CHECK-LABEL: func @dynamic_update_slice_at_constants(
func.func @dynamic_update_slice_at_constants(%arg0: tensor<32x4x8xf32>, %arg1: tensor<32x1x2xf32>) -> tensor<32x4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2}>}
  %v0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c0, %c0, %c0 : (tensor<32x4x8xf32>, tensor<32x1x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x4x8xf32>
  return %v0 : tensor<32x4x8xf32>
}

// Padded dims (negative edges too) permute (pad)
// CHECK-LABEL: func @pad_two_dims(
func.func @pad_two_dims(%arg0: tensor<28x28x16xf32>, %arg1: tensor<f32>) -> tensor<30x26x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j}>}
  %v0 = stablehlo.pad %arg0, %arg1, low = [1, -1, 0], high = [1, -1, 0], interior = [0, 0, 0] : (tensor<28x28x16xf32>, tensor<f32>) -> tensor<30x26x16xf32>
  return %v0 : tensor<30x26x16xf32>
}

// A size-1 dim that is not reduced maps through (reduce_size_one_dim)
// CHECK-LABEL: func @reduce_keeps_unit_dim(
func.func @reduce_keeps_unit_dim(%arg0: tensor<2x64x1x13xf32>) -> tensor<2x1x13xf32> {
  // CHECK: stablehlo.constant
  // CHECK-NOT: sdy.sharding_rule
  %v0 = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [])->([i, k, l]) {i=2, j=64, k=1, l=13} reduction={j}>}
  %v1 = stablehlo.reduce(%arg0 init: %v0) applies stablehlo.add across dimensions = [1] : (tensor<2x64x1x13xf32>, tensor<f32>) -> tensor<2x1x13xf32>
  return %v1 : tensor<2x1x13xf32>
}

// The reduced dim is a reduction factor of the operand only (reduce_single_result)
// CHECK-LABEL: func @reduce_middle_dim(
func.func @reduce_middle_dim(%arg0: tensor<2x64x13xf32>) -> tensor<2x13xf32> {
  // CHECK: stablehlo.constant
  // CHECK-NOT: sdy.sharding_rule
  %v0 = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, k]) {i=2, j=64, k=13} reduction={j}>}
  %v1 = stablehlo.reduce(%arg0 init: %v0) applies stablehlo.add across dimensions = [1] : (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>
  return %v1 : tensor<2x13xf32>
}

// A swap, then a merge (reshape_swap_and_merge)
// CHECK-LABEL: func @reshape_merge_swapped(
func.func @reshape_merge_swapped(%arg0: tensor<2x3x8xf32>) -> tensor<3x4x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, mn])->([j, lm, n]) {i=2, j=3, k=3, l=2, m=2, n=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<2x3x8xf32>) -> tensor<3x4x4xf32>
  return %v0 : tensor<3x4x4xf32>
}

// A merge followed by a new size-1 dim (reshape_merge_dim_then_size_one)
// CHECK-LABEL: func @reshape_merge_then_unit(
func.func @reshape_merge_then_unit(%arg0: tensor<8x4xf32>) -> tensor<32x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij, k]) {i=8, j=4, k=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<8x4xf32>) -> tensor<32x1xf32>
  return %v0 : tensor<32x1xf32>
}

// Two dims merged into one (reshape_merge_dim)
// CHECK-LABEL: func @reshape_merge_two(
func.func @reshape_merge_two(%arg0: tensor<2x4xf32>) -> tensor<8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<2x4xf32>) -> tensor<8xf32>
  return %v0 : tensor<8xf32>
}

// Size-1 dims on both sides, each its own unit factor (reshape_size_one_dims)
// CHECK-LABEL: func @reshape_moves_unit_dims(
func.func @reshape_moves_unit_dims(%arg0: tensor<1x8x4xf32>) -> tensor<8x1x4x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l])->([j, k, l, m]) {i=1, j=8, k=1, l=4, m=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<1x8x4xf32>) -> tensor<8x1x4x1xf32>
  return %v0 : tensor<8x1x4x1xf32>
}

// A split of a dim next to a size-1 dim (reshape_split_dim_then_size_one)
// CHECK-LABEL: func @reshape_split_from_unit(
func.func @reshape_split_from_unit(%arg0: tensor<32x1xf32>) -> tensor<8x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, j]) {i=8, j=4, k=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<32x1xf32>) -> tensor<8x4xf32>
  return %v0 : tensor<8x4xf32>
}

// One dim split in three (reshape_split_dim_three_way)
// CHECK-LABEL: func @reshape_split_in_three(
func.func @reshape_split_in_three(%arg0: tensor<4x12xf32>) -> tensor<4x2x3x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, jkl])->([i, j, k, l]) {i=4, j=2, k=3, l=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<4x12xf32>) -> tensor<4x2x3x2xf32>
  return %v0 : tensor<4x2x3x2xf32>
}

// One dim split in two (reshape_split_dim)
// CHECK-LABEL: func @reshape_split_in_two(
func.func @reshape_split_in_two(%arg0: tensor<8xf32>) -> tensor<2x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>
  return %v0 : tensor<2x4xf32>
}

// A split, a swap and a merge (reshape_split_swap_and_merge)
// CHECK-LABEL: func @reshape_split_swap_merge(
func.func @reshape_split_swap_merge(%arg0: tensor<4x7x5x8xf32>) -> tensor<14x10x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, l, n, o])->([ik, mn, o]) {i=2, j=2, k=7, l=7, m=2, n=5, o=8}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<4x7x5x8xf32>) -> tensor<14x10x8xf32>
  return %v0 : tensor<14x10x8xf32>
}

// A split whose pieces swap places (reshape_split_and_swap)
// CHECK-LABEL: func @reshape_split_swapped(
func.func @reshape_split_swapped(%arg0: tensor<3x4x4xf32>) -> tensor<2x3x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, lm, n])->([j, k, mn]) {i=3, j=2, k=3, l=2, m=2, n=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<3x4x4xf32>) -> tensor<2x3x8xf32>
  return %v0 : tensor<2x3x8xf32>
}

// A split and a merge in one reshape (reshape_split_and_merge_dims)
// CHECK-LABEL: func @reshape_split_then_merge(
func.func @reshape_split_then_merge(%arg0: tensor<8x4x5xf32>) -> tensor<2x16x5xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, l])->([i, jk, l]) {i=2, j=4, k=4, l=5}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<8x4x5xf32>) -> tensor<2x16x5xf32>
  return %v0 : tensor<2x16x5xf32>
}

// A split with a size-1 dim in the middle (reshape_split_dim_with_intermediate_one)
// CHECK-LABEL: func @reshape_split_with_unit_between(
func.func @reshape_split_with_unit_between(%arg0: tensor<32xf32>) -> tensor<8x1x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ik])->([i, j, k]) {i=8, j=1, k=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<8x1x4xf32>
  return %v0 : tensor<8x1x4xf32>
}

// A swap with shared dims before and between (reshape_swap_with_dim_before_and_in_between)
// CHECK-LABEL: func @reshape_swap_around_shared_dims(
func.func @reshape_swap_around_shared_dims(%arg0: tensor<5x2x5x3xf32>) -> tensor<5x3x5x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l, n])->([i, k, m, o]) {i=5, j=2, k=3, l=5, m=5, n=3, o=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<5x2x5x3xf32>) -> tensor<5x3x5x2xf32>
  return %v0 : tensor<5x3x5x2xf32>
}

// Swapped coprime sizes: nothing shared (reshape_swap_dims_no_common_divisor)
// CHECK-LABEL: func @reshape_swap_coprime(
func.func @reshape_swap_coprime(%arg0: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, l])->([j, k]) {i=3, j=2, k=3, l=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %v0 : tensor<2x3xf32>
}

// Swapped sizes share their common divisor (reshape_swap_dims_with_common_divisor)
// CHECK-LABEL: func @reshape_swap_sharing_divisor(
func.func @reshape_swap_sharing_divisor(%arg0: tensor<6x4xf32>) -> tensor<4x6xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %v0 : tensor<4x6xf32>
}

// Two unit dims, each a unit factor (reshape_scalar)
// CHECK-LABEL: func @reshape_to_scalar(
func.func @reshape_to_scalar(%arg0: tensor<1x1xf32>) -> tensor<f32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<1x1xf32>) -> tensor<f32>
  return %v0 : tensor<f32>
}

// No elements: no rule (reshape_size_zero_dim)
// CHECK-LABEL: func @reshape_without_elements(
func.func @reshape_without_elements(%arg0: tensor<4x0xf32>) -> tensor<0x8xf32> {
  // CHECK: stablehlo.reshape
  // CHECK-NOT: sdy.sharding_rule
  %v0 = stablehlo.reshape %arg0 : (tensor<4x0xf32>) -> tensor<0x8xf32>
  return %v0 : tensor<0x8xf32>
}

// Reversed dims permute (reverse)
// CHECK-LABEL: func @reverse_two_dims(
func.func @reverse_two_dims(%arg0: tensor<4x32x8x2xf32>) -> tensor<4x32x8x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, j, k, l]) {i=4, j=32, k=8, l=2} permutation={j, l}>}
  %v0 = stablehlo.reverse %arg0, dims = [1, 3] : tensor<4x32x8x2xf32>
  return %v0 : tensor<4x32x8x2xf32>
}

// Predicate of the operands' shape (select)
// CHECK-LABEL: func @select_elementwise_pred(
func.func @select_elementwise_pred(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.select %arg0, %arg1, %arg2 : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// A scalar predicate takes no part (select_scalar_pred)
// CHECK-LABEL: func @select_scalar_pred(
func.func @select_scalar_pred(%arg0: tensor<i1>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.select %arg0, %arg1, %arg2 : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// Sliced dims permute (slice)
// CHECK-LABEL: func @slice_two_dims(
func.func @slice_two_dims(%arg0: tensor<32x4x8xf32>) -> tensor<32x1x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k}>}
  %v0 = stablehlo.slice %arg0 [0:32:1, 1:2:1, 4:8:2] : (tensor<32x4x8xf32>) -> tensor<32x1x2xf32>
  return %v0 : tensor<32x1x2xf32>
}

// Each result dim's factor on its operand dim (transpose)
// CHECK-LABEL: func @transpose_four_dims(
func.func @transpose_four_dims(%arg0: tensor<256x32x64x100xf32>) -> tensor<100x32x256x64xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([k, j, l, i])->([i, j, k, l]) {i=100, j=32, k=256, l=64}>}
  %v0 = stablehlo.transpose %arg0, dims = [3, 1, 0, 2] : (tensor<256x32x64x100xf32>) -> tensor<100x32x256x64xf32>
  return %v0 : tensor<100x32x256x64xf32>
}

// -----
// Ops of shardgen that Shardy's file has no function for. Their rules follow
// Shardy's registry: compare, convert, sharding_constraint, all_reduce and
// collective_permute are pointwise; iota, propagation_barrier,
// sharding_group and manual_computation get no rule; the collectives that
// resize dims list the pass-through dims first, then each resized dim's
// operand and result factors (all_to_all: the split dim, then the concat dim).
sdy.mesh @m = <["x"=2, "y"=4]>

// CHECK-LABEL: func @pointwise_sdy_and_conversion_ops(
func.func @pointwise_sdy_and_conversion_ops(%a: tensor<4x1xf32>, %b: tensor<4x1xf32>) -> (tensor<4x1xi1>, tensor<4x1xi32>, tensor<4x1xf32>) {
  // CHECK: stablehlo.iota
  // CHECK-NOT: sdy.sharding_rule
  // CHECK: stablehlo.compare {{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=1}>}
  // CHECK: stablehlo.convert {{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=1}>}
  // CHECK: sdy.sharding_constraint {{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=1}>}
  // CHECK: sdy.propagation_barrier
  // CHECK-NOT: sdy.sharding_rule
  // CHECK: sdy.sharding_group
  // CHECK-NOT: sdy.sharding_rule
  // CHECK: return
  %i = stablehlo.iota dim = 0 : tensor<4x1xf32>
  %lt = stablehlo.compare LT, %a, %i, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
  %n = stablehlo.convert %b : (tensor<4x1xf32>) -> tensor<4x1xi32>
  %c = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<4x1xf32>
  %p = sdy.propagation_barrier %c allowed_direction=NONE : tensor<4x1xf32>
  sdy.sharding_group %p group_id=0 : tensor<4x1xf32>
  return %lt, %n, %p : tensor<4x1xi1>, tensor<4x1xi32>, tensor<4x1xf32>
}

// CHECK-LABEL: func @collectives_in_a_body(
func.func @collectives_in_a_body(%in: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>) {
  // CHECK: sdy.manual_computation
  // CHECK-NOT: sdy.sharding_rule
  // CHECK: "stablehlo.all_reduce"
  // CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=4}>}
  // CHECK: "stablehlo.all_gather"{{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([k, i]) {i=4, j=4, k=8} need_replication={j, k}>}
  // CHECK: "stablehlo.all_to_all"{{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([k, i])->([l, j]) {i=4, j=1, k=4, l=16} need_replication={i, j, k, l}>}
  // CHECK: "stablehlo.reduce_scatter"
  // CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=4, j=4, k=1} need_replication={j, k}>}
  // CHECK: "stablehlo.collective_permute"{{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=4}>}
  %r:3 = sdy.manual_computation(%in) in_shardings=[<@m, [{"x"}, {"y"}]>] out_shardings=[<@m, [{"x"}, {"y"}]>, <@m, [{"x"}, {"y"}]>, <@m, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%l: tensor<4x4xf32>) {
    %sum = "stablehlo.all_reduce"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%s0: tensor<f32>, %s1: tensor<f32>):
      %s2 = stablehlo.add %s0, %s1 : tensor<f32>
      stablehlo.return %s2 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %g = "stablehlo.all_gather"(%sum) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<8x4xf32>
    %t = "stablehlo.all_to_all"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<16x1xf32>
    %t2 = stablehlo.reshape %t : (tensor<16x1xf32>) -> tensor<4x4xf32>
    %rs = "stablehlo.reduce_scatter"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%q0: tensor<f32>, %q1: tensor<f32>):
      %q2 = stablehlo.add %q0, %q1 : tensor<f32>
      stablehlo.return %q2 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x1xf32>
    %rs2 = stablehlo.broadcast_in_dim %rs, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x4xf32>
    %cp = "stablehlo.collective_permute"(%t2) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, source_target_pairs = dense<[[0, 4], [4, 0], [1, 5], [5, 1], [2, 6], [6, 2], [3, 7], [7, 3]]> : tensor<8x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    sdy.return %cp, %g, %rs2 : tensor<4x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>
  } : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>)
  return %r#0, %r#1, %r#2 : tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>
}

// A width change: the narrower side's minor dim needs replication, the
// others pass through (bitcast_convert_upcast)
// CHECK-LABEL: func @bitcast_convert_upcast(
func.func @bitcast_convert_upcast(%arg0: tensor<4x2x2xui32>) -> tensor<4x2xui64> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=4, j=2, k=2} need_replication={k}>}
  %v0 = stablehlo.bitcast_convert %arg0 : (tensor<4x2x2xui32>) -> tensor<4x2xui64>
  return %v0 : tensor<4x2xui64>
}

// One width: elementwise (bitcast_convert_equal)
// CHECK-LABEL: func @bitcast_convert_equal(
func.func @bitcast_convert_equal(%arg0: tensor<4x2x2xui32>) -> tensor<4x2x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=2, k=2}>}
  %v0 = stablehlo.bitcast_convert %arg0 : (tensor<4x2x2xui32>) -> tensor<4x2x2xf32>
  return %v0 : tensor<4x2x2xf32>
}

// The result's new minor dim needs replication (bitcast_convert_downcast)
// CHECK-LABEL: func @bitcast_convert_downcast(
func.func @bitcast_convert_downcast(%arg0: tensor<4x2xui64>) -> tensor<4x2x2xui32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j, k]) {i=4, j=2, k=2} need_replication={k}>}
  %v0 = stablehlo.bitcast_convert %arg0 : (tensor<4x2xui64>) -> tensor<4x2x2xui32>
  return %v0 : tensor<4x2x2xui32>
}

// ---- gather and scatter ----

// Batch dims pass through indices and result; a dim sliced to more than 1
// needs replication and blocks; a dim sliced to 1 and a collapsed dim are
// reductions (gather)
// CHECK-LABEL: func @gather_sliced_and_collapsed(
func.func @gather_sliced_and_collapsed(%arg0: tensor<3x4x2x5xf32>, %arg1: tensor<2x3x3xi64>) -> tensor<2x3x2x2x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([o, k, l, m], [i, j, p])->([i, j, k, l, n]) {i=2, j=3, k=4, l=2, m=5, n=1, o=3, p=3} reduction={m, o} need_replication={k, n, p} blocked_propagation={k}>}
  %v0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3, 4], collapsed_slice_dims = [0], start_index_map = [1, 0, 3], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2, 1>}> : (tensor<3x4x2x5xf32>, tensor<2x3x3xi64>) -> tensor<2x3x2x2x1xf32>
  return %v0 : tensor<2x3x2x2x1xf32>
}

// Explicit batching dims share a factor across operand, indices and
// result (gather_batching_dims)
// CHECK-LABEL: func @gather_with_batching_dims(
func.func @gather_with_batching_dims(%arg0: tensor<5x3x7x4xf32>, %arg1: tensor<7x5x3x2xi64>) -> tensor<7x5x3x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([j, m, i, l], [i, j, k, n])->([i, j, k, l]) {i=7, j=5, k=3, l=4, m=3, n=2} reduction={m} need_replication={l, n} blocked_propagation={l}>}
  %v0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [3], collapsed_slice_dims = [1], operand_batching_dims = [0, 2], start_indices_batching_dims = [1, 0], start_index_map = [1, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 2>}> : (tensor<5x3x7x4xf32>, tensor<7x5x3x2xi64>) -> tensor<7x5x3x2xf32>
  return %v0 : tensor<7x5x3x2xf32>
}

// An add's implicit batch dims are reductions; a window dim narrower than
// the input needs replication on both sides; an inserted dim passes
// through input and result (scatter_single_input)
// CHECK-LABEL: func @scatter_add(
func.func @scatter_add(%arg0: tensor<3x4x2xf32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xf32>) -> tensor<3x4x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([n, k, m], [i, j, o], [i, j, l, m])->([n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} reduction={i, j} need_replication={k, l, o}>}
  %v0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<2x3x2x2xf32>) -> tensor<3x4x2xf32>
  return %v0 : tensor<3x4x2xf32>
}

// Explicit batching dims pass through all four (scatter_batching_dims)
// CHECK-LABEL: func @scatter_with_batching_dims(
func.func @scatter_with_batching_dims(%arg0: tensor<5x3x7x4xf32>, %arg1: tensor<7x5x3x2xi64>, %arg2: tensor<7x5x3x2xf32>) -> tensor<5x3x7x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([j, n, i, l], [i, j, k, o], [i, j, k, m])->([j, n, i, l]) {i=7, j=5, k=3, l=4, m=2, n=3, o=2} reduction={k} need_replication={l, m, o}>}
  %v0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3], inserted_window_dims = [1], input_batching_dims = [0, 2], scatter_indices_batching_dims = [1, 0], scatter_dims_to_operand_dims = [1, 3], index_vector_dim = 3>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5x3x7x4xf32>, tensor<7x5x3x2xi64>, tensor<7x5x3x2xf32>) -> tensor<5x3x7x4xf32>
  return %v0 : tensor<5x3x7x4xf32>
}

// A replace (no common reduction) makes the implicit batch dims need
// replication
// CHECK-LABEL: func @scatter_replace(
func.func @scatter_replace(%arg0: tensor<8x4xf32>, %arg1: tensor<6x1xi32>, %arg2: tensor<6x4xf32>) -> tensor<8x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=6, j=4, k=8, l=1} need_replication={i, l}>}
  %v0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  return %v0 : tensor<8x4xf32>
}

// Several inputs share the factors with the results, the updates with
// each other; one reduction op for all keeps the reductions
// (scatter_multiple_input)
// CHECK-LABEL: func @scatter_two_inputs(
func.func @scatter_two_inputs(%arg0: tensor<3x4x2xi32>, %arg1: tensor<3x4x2xf32>, %arg2: tensor<2x3x2xi64>, %arg3: tensor<2x3x2x2xi32>, %arg4: tensor<2x3x2x2xf32>) -> (tensor<3x4x2xi32>, tensor<3x4x2xf32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([n, k, m], [n, k, m], [i, j, o], [i, j, l, m], [i, j, l, m])->([n, k, m], [n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} reduction={i, j} need_replication={k, l, o}>}
  %v0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    %t = stablehlo.add %b, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<i32>, tensor<f32>
  }) : (tensor<3x4x2xi32>, tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>, tensor<2x3x2x2xf32>) -> (tensor<3x4x2xi32>, tensor<3x4x2xf32>)
  return %v0#0, %v0#1 : tensor<3x4x2xi32>, tensor<3x4x2xf32>
}

// Two different reduction ops are no common reduction: the implicit
// batch dims need replication (scatter_unsupported_multi_reduction_op)
// CHECK-LABEL: func @scatter_two_reduction_ops(
func.func @scatter_two_reduction_ops(%arg0: tensor<3x4x2xi32>, %arg1: tensor<3x4x2xf32>, %arg2: tensor<2x3x2xi64>, %arg3: tensor<2x3x2x2xi32>, %arg4: tensor<2x3x2x2xf32>) -> (tensor<3x4x2xi32>, tensor<3x4x2xf32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([n, k, m], [n, k, m], [i, j, o], [i, j, l, m], [i, j, l, m])->([n, k, m], [n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} need_replication={i, j, k, l, o}>}
  %v0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    %t = stablehlo.multiply %b, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<i32>, tensor<f32>
  }) : (tensor<3x4x2xi32>, tensor<3x4x2xf32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>, tensor<2x3x2x2xf32>) -> (tensor<3x4x2xi32>, tensor<3x4x2xf32>)
  return %v0#0, %v0#1 : tensor<3x4x2xi32>, tensor<3x4x2xf32>
}

// The sorted dim needs replication; the other dims pass through all inputs
// and results (sort)
// CHECK-LABEL: func @sort(
func.func @sort(%arg0: tensor<4x32x8xi32>, %arg1: tensor<4x32x8xf32>) -> (tensor<4x32x8xi32>, tensor<4x32x8xf32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k], [i, j, k]) {i=4, j=32, k=8} need_replication={i}>}
  %v0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4x32x8xi32>, tensor<4x32x8xf32>) -> (tensor<4x32x8xi32>, tensor<4x32x8xf32>)
  return %v0#0, %v0#1 : tensor<4x32x8xi32>, tensor<4x32x8xf32>
}

// With every other dim of size 1 the sorted dim also blocks propagation
// (sort_all_other_dims_size_one)
// CHECK-LABEL: func @sort_all_other_dims_size_one(
func.func @sort_all_other_dims_size_one(%arg0: tensor<1x4x1xi32>) -> tensor<1x4x1xi32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=1, j=4, k=1} need_replication={j} blocked_propagation={j}>}
  %v0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
  return %v0 : tensor<1x4x1xi32>
}

// mhlo.topk (read as top_k): the last dim one blocked factor needing
// replication, of the operand's size (custom_call_topk_of_1d)
// CHECK-LABEL: func @custom_call_topk_of_1d(
func.func @custom_call_topk_of_1d(%arg0: tensor<16xf32>) -> (tensor<1xf32>, tensor<1xi32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [i]) {i=16} need_replication={i} blocked_propagation={i}>}
  %v0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 1 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<16xf32>) -> (tensor<1xf32>, tensor<1xi32>)
  return %v0#0, %v0#1 : tensor<1xf32>, tensor<1xi32>
}

// The other dims pass through (custom_call_topk_of_2d)
// CHECK-LABEL: func @custom_call_topk_of_2d(
func.func @custom_call_topk_of_2d(%arg0: tensor<16x8xf32>) -> (tensor<16x1xf32>, tensor<16x1xi32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>}
  %v0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 1 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x1xf32>, tensor<16x1xi32>)
  return %v0#0, %v0#1 : tensor<16x1xf32>, tensor<16x1xi32>
}

// k = 2 (custom_call_top2_of_2d)
// CHECK-LABEL: func @custom_call_top2_of_2d(
func.func @custom_call_top2_of_2d(%arg0: tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>}
  %v0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return %v0#0, %v0#1 : tensor<16x2xf32>, tensor<16x2xi32>
}

// chlo.top_k as JAX prints it: the same rule as mhlo.topk's
// CHECK-LABEL: func @chlo_top_k(
func.func @chlo_top_k(%arg0: tensor<16x8xf32>) -> (tensor<16x1xf32>, tensor<16x1xi32>) {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>}
  %v0:2 = chlo.top_k(%arg0, k = 1) : tensor<16x8xf32> -> (tensor<16x1xf32>, tensor<16x1xi32>)
  return %v0#0, %v0#1 : tensor<16x1xf32>, tensor<16x1xi32>
}

// Several inputs share every factor (reduce_multiple_results)
// CHECK-LABEL: func @reduce_multiple_results(
func.func @reduce_multiple_results(%arg0: tensor<2x64x13xf32>, %arg1: tensor<2x64x13xi32>) -> (tensor<64xf32>, tensor<64xi32>) {
  %c0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c1 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} reduction={i, k}>}
  %v0:2 = stablehlo.reduce(%arg0 init: %c0), (%arg1 init: %c1) across dimensions = [0, 2] : (tensor<2x64x13xf32>, tensor<2x64x13xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
    %s = stablehlo.add %a, %c : tensor<f32>
    %t = stablehlo.add %b, %d : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }
  return %v0#0, %v0#1 : tensor<64xf32>, tensor<64xi32>
}

// Windows: convolution (conv_simple)
// CHECK-LABEL: func @conv_simple(
func.func @conv_simple(%arg0 : tensor<2x224x224x192xf32>, %arg1 : tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=112, k=2, l=112, m=2, n=192, o=64} reduction={k, m, n} permutation={j, l}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 1 : i64,
      feature_group_count = 1 : i64
    } : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32>
  return %0 : tensor<2x112x112x64xf32>
}

// Windows: convolution (conv_window_size_greater_than_num_windows)
// CHECK-LABEL: func @conv_window_size_greater_than_num_windows(
func.func @conv_window_size_greater_than_num_windows(%arg0: tensor<2x224x224x192xf32>, %arg1: tensor<112x112x192x64xf32>) -> tensor<2x57x57x64xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, n], [j, l, n, o])->([i, k, m, o]) {i=2, j=112, k=2, l=112, m=2, n=192, o=64} reduction={j, l, n} permutation={k, m}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 1 : i64,
      feature_group_count = 1 : i64
    } : (tensor<2x224x224x192xf32>, tensor<112x112x192x64xf32>) -> tensor<2x57x57x64xf32>
  return %0 : tensor<2x57x57x64xf32>
}

// Windows: convolution (conv_batch_group_count)
// CHECK-LABEL: func @conv_batch_group_count(
func.func @conv_batch_group_count(%arg0: tensor<8x224x224x192xf32>, %arg1: tensor<3x3x192x256xf32>) -> tensor<2x112x112x256xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([ij, kl, mn, o], [l, n, o, ip])->([j, k, m, ip]) {i=4, j=2, k=112, l=2, m=112, n=2, o=192, p=64} reduction={l, n, o} permutation={k, m}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 4 : i64,
      feature_group_count = 1 : i64
    } : (tensor<8x224x224x192xf32>, tensor<3x3x192x256xf32>) -> tensor<2x112x112x256xf32>
  return %0 : tensor<2x112x112x256xf32>
}

// Windows: convolution (conv_feature_group_count)
// CHECK-LABEL: func @conv_feature_group_count(
func.func @conv_feature_group_count(%arg0: tensor<8x224x224x192xf32>, %arg1: tensor<3x3x12x256xf32>) -> tensor<8x112x112x256xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, no], [k, m, o, np])->([i, j, l, np]) {i=8, j=112, k=2, l=112, m=2, n=16, o=12, p=16} reduction={k, m, o} permutation={j, l}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 1 : i64,
      feature_group_count = 16 : i64
    } : (tensor<8x224x224x192xf32>, tensor<3x3x12x256xf32>) -> tensor<8x112x112x256xf32>
  return %0 : tensor<8x112x112x256xf32>
}

// Windows: reduce_window (reduce_window)
// CHECK-LABEL: func @reduce_window(
func.func @reduce_window(%arg0: tensor<48x48x3xf32>, %arg1: tensor<48x48x3xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>)
    -> (tensor<16x48x3xf32>, tensor<16x48x3xi32>) {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [], [])->([i, j, k], [i, j, k]) {i=16, j=48, k=3} permutation={i, j}>
  %0:2 = "stablehlo.reduce_window"(%arg0, %arg1, %arg2, %arg3) ({
  ^bb0(%arg4: tensor<f32>, %arg5 : tensor<i32>, %arg6: tensor<f32>, %arg7 : tensor<i32>):
    %1 = stablehlo.maximum %arg4, %arg6 : tensor<f32>
    %2 = stablehlo.maximum %arg5, %arg7 : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 3, 1, 1>,
      window_strides = array<i64: 3, 1, 1>,
      padding = dense<[[0, 0], [2, -2], [0, 0]]> : tensor<3x2xi64>}
      : (tensor<48x48x3xf32>, tensor<48x48x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<16x48x3xf32>, tensor<16x48x3xi32>)
  func.return %0#0, %0#1 : tensor<16x48x3xf32>, tensor<16x48x3xi32>
}

// Windows: reduce_window (reduce_window_permute_only)
// CHECK-LABEL: func @reduce_window_permute_only(
func.func @reduce_window_permute_only(%arg0: tensor<8x16xf32>, %arg1: tensor<f32>)
    -> tensor<8x16xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={i, j}>
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%arg4: tensor<f32>, %arg5 : tensor<f32>):
    %1 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>,
      padding = dense<[[-1, 1], [2, -2]]> : tensor<2x2xi64>}
      : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}

// Windows: select_and_scatter (select_and_scatter)
// CHECK-LABEL: func @select_and_scatter(
func.func @select_and_scatter(%arg0: tensor<10x24x24x64xf32>, %arg1: tensor<9x12x12x64xf32>, %arg2: tensor<f32>)
   -> tensor<10x24x24x64xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, l, n, o], [i, k, m, o], [])->([j, l, n, o]) {i=9, j=10, k=12, l=24, m=12, n=24, o=64} need_replication={i, k, m} permutation={j, l, n}>
  %1 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %2 = stablehlo.compare GT, %arg3, %arg4 :(tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  },  {
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %2 = stablehlo.add %arg3, %arg4 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) {
    window_dimensions = array<i64: 1, 2, 2, 1>,
    padding = dense<[[-1, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>,
    window_strides = array<i64: 1, 2, 2, 1>
  } : (tensor<10x24x24x64xf32>, tensor<9x12x12x64xf32>, tensor<f32>) -> tensor<10x24x24x64xf32>
  return %1 : tensor<10x24x24x64xf32>
}

// Windows: convolution (conv_per_group_batch_size_one)
// CHECK-LABEL: func @conv_per_group_batch_size_one(
func.func @conv_per_group_batch_size_one(%arg0: tensor<4x224x224x192xf32>, %arg1: tensor<3x3x192x256xf32>) -> tensor<1x112x112x256xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, kl, mn, o], [l, n, o, ip])->([j, k, m, ip]) {i=4, j=1, k=112, l=2, m=112, n=2, o=192, p=64} reduction={l, n, o} permutation={k, m}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 4 : i64,
      feature_group_count = 1 : i64
    } : (tensor<4x224x224x192xf32>, tensor<3x3x192x256xf32>) -> tensor<1x112x112x256xf32>
  return %0 : tensor<1x112x112x256xf32>
}

// Windows: convolution (conv_per_group_input_feature_size_one)
// CHECK-LABEL: func @conv_per_group_input_feature_size_one(
func.func @conv_per_group_input_feature_size_one(%arg0: tensor<8x224x224x16xf32>, %arg1: tensor<3x3x1x256xf32>) -> tensor<8x112x112x256xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, n], [k, m, o, np])->([i, j, l, np]) {i=8, j=112, k=2, l=112, m=2, n=16, o=1, p=16} reduction={k, m, o} permutation={j, l}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 1 : i64,
      feature_group_count = 16 : i64
    } : (tensor<8x224x224x16xf32>, tensor<3x3x1x256xf32>) -> tensor<8x112x112x256xf32>
  return %0 : tensor<8x112x112x256xf32>
}

// Windows: convolution (conv_output_feature_size_one)
// CHECK-LABEL: func @conv_output_feature_size_one(
func.func @conv_output_feature_size_one(%arg0: tensor<8x224x224x192xf32>, %arg1: tensor<3x3x12x16xf32>) -> tensor<8x112x112x16xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, no], [k, m, o, n])->([i, j, l, n]) {i=8, j=112, k=2, l=112, m=2, n=16, o=12} reduction={k, m, o} permutation={j, l}>
  %0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 1 : i64,
      feature_group_count = 16 : i64
    } : (tensor<8x224x224x192xf32>, tensor<3x3x12x16xf32>) -> tensor<8x112x112x16xf32>
  return %0 : tensor<8x112x112x16xf32>
}

// Windows: reduce_window (reduce_window_passthrough_dim)
// CHECK-LABEL: func @reduce_window_passthrough_dim(
func.func @reduce_window_passthrough_dim(%arg0: tensor<8x16xf32>, %arg1: tensor<f32>)
    -> tensor<8x16xf32> {
  // CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%arg4: tensor<f32>, %arg5 : tensor<f32>):
    %1 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>,
      padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>}
      : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}

// rng_bit_generator: the state needs replication and blocks propagation,
// each output dim its own factor (rng_bit_generator)
// CHECK-LABEL: func @rng_bit_generator(
func.func @rng_bit_generator(%arg0: tensor<2xui64>) -> tensor<4x1000xui32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=4, k=1000} need_replication={i} blocked_propagation={i}>
  %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x1000xui32>)
  return %output : tensor<4x1000xui32>
}

// fft: the batch dims pass through, the transform's dims need replication,
// RFFT's and IRFFT's last dim (truncated or expanded) also blocks (fft)
// CHECK-LABEL: func @fft(
func.func @fft(%arg0: tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k}>
  %0 = stablehlo.fft %arg0, type = FFT, length = [32, 64] : (tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>>
  return %0 : tensor<8x32x64xcomplex<f32>>
}
// CHECK-LABEL: func @fft_inverse(
func.func @fft_inverse(%arg0: tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k}>
  %0 = stablehlo.fft %arg0, type = IFFT, length = [32, 64] : (tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>>
  return %0 : tensor<8x32x64xcomplex<f32>>
}

// CHECK-LABEL: func @fft_real_truncated_result(
func.func @fft_real_truncated_result(%arg0: tensor<8x32x64xf32>) -> tensor<8x32x33xcomplex<f32>> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k} blocked_propagation={k}>
  %0 = stablehlo.fft %arg0, type = RFFT, length = [32, 64] : (tensor<8x32x64xf32>) -> tensor<8x32x33xcomplex<f32>>
  return %0 : tensor<8x32x33xcomplex<f32>>
}

// CHECK-LABEL: func @fft_inverse_real_expanded_result(
func.func @fft_inverse_real_expanded_result(%arg0: tensor<8x32x33xcomplex<f32>>) -> tensor<8x32x64xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=33} need_replication={j, k} blocked_propagation={k}>
  %0 = stablehlo.fft %arg0, type = IRFFT, length = [32, 64] : (tensor<8x32x33xcomplex<f32>>) -> tensor<8x32x64xf32>
  return %0 : tensor<8x32x64xf32>
}

// CHECK-LABEL: func @fft_single_fft_dimension(
func.func @fft_single_fft_dimension(%arg0: tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={k}>
  %0 = stablehlo.fft %arg0, type = FFT, length = [64] : (tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>>
  return %0 : tensor<8x32x64xcomplex<f32>>
}

// CHECK-LABEL: func @fft_single_fft_dimension_inverse(
func.func @fft_single_fft_dimension_inverse(%arg0: tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={k}>
  %0 = stablehlo.fft %arg0, type = IFFT, length = [64] : (tensor<8x32x64xcomplex<f32>>) -> tensor<8x32x64xcomplex<f32>>
  return %0 : tensor<8x32x64xcomplex<f32>>
}

// CHECK-LABEL: func @fft_single_fft_dimension_real_truncated_result(
func.func @fft_single_fft_dimension_real_truncated_result(%arg0: tensor<8x32x64xf32>) -> tensor<8x32x33xcomplex<f32>> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={k} blocked_propagation={k}>
  %0 = stablehlo.fft %arg0, type = RFFT, length = [64] : (tensor<8x32x64xf32>) -> tensor<8x32x33xcomplex<f32>>
  return %0 : tensor<8x32x33xcomplex<f32>>
}

// CHECK-LABEL: func @fft_single_fft_dimension_inverse_real_expanded_result(
func.func @fft_single_fft_dimension_inverse_real_expanded_result(%arg0: tensor<8x32x33xcomplex<f32>>) -> tensor<8x32x64xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=32, k=33} need_replication={k} blocked_propagation={k}>
  %0 = stablehlo.fft %arg0, type = IRFFT, length = [64] : (tensor<8x32x33xcomplex<f32>>) -> tensor<8x32x64xf32>
  return %0 : tensor<8x32x64xf32>
}
