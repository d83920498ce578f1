// RUN: shardgen export %s --sharding-rules | FileCheck %s
//
// Each op's Shardy sharding rule as `export --sharding-rules` attaches it
// (what `sdy_opt -sdy-populate-op-sharding-rules` prints): size-1 dims keep
// unit factors, constants get no rule, a custom_call's own rule is marked
// `custom`. One function per op and shape; the rules are the facts of
// Shardy's op_sharding_rule_registry.mlir for the ops shardgen has (the same
// facts as test/conformance/cases/op_sharding_rule_registry, whose file
// names are Shardy's function names). Functions of that file for ops
// shardgen lacks: test/lit/SKIPPED.md.

// scalars: no factors at all
// CHECK-LABEL: func @add_of_scalars(
func.func @add_of_scalars(%arg0: tensor<f32>) -> tensor<f32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>}
  %v0 = stablehlo.add %arg0, %arg0 : tensor<f32>
  return %v0 : tensor<f32>
}

// an empty dim keeps a factor of size 0
// CHECK-LABEL: func @add_with_empty_dim(
func.func @add_with_empty_dim(%arg0: tensor<2x0x4xf32>) -> tensor<2x0x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}>}
  %v0 = stablehlo.add %arg0, %arg0 : tensor<2x0x4xf32>
  return %v0 : tensor<2x0x4xf32>
}

// elementwise: one factor per dim, the size-1 dim too
// CHECK-LABEL: func @add_with_unit_dim(
func.func @add_with_unit_dim(%arg0: tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=1, k=4}>}
  %v0 = stablehlo.add %arg0, %arg0 : tensor<2x1x4xf32>
  return %v0 : tensor<2x1x4xf32>
}

// an expanded size-1 dim: a unit factor, then the result's
// CHECK-LABEL: func @broadcast_expands_unit_dim(
func.func @broadcast_expands_unit_dim(%arg0: tensor<2x1x13xf32>) -> tensor<2x64x13xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l])->([i, k, l]) {i=2, j=1, k=64, l=13}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<2x1x13xf32>) -> tensor<2x64x13xf32>
  return %v0 : tensor<2x64x13xf32>
}

// every result dim is new
// CHECK-LABEL: func @broadcast_from_scalar(
func.func @broadcast_from_scalar(%arg0: tensor<f32>) -> tensor<2x1x13xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j, k]) {i=2, j=1, k=13}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x1x13xf32>
  return %v0 : tensor<2x1x13xf32>
}

// the empty dim maps through
// CHECK-LABEL: func @broadcast_keeps_empty_dim(
func.func @broadcast_keeps_empty_dim(%arg0: tensor<2x13x0xf32>) -> tensor<2x64x13x0xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=0}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 3] : (tensor<2x13x0xf32>) -> tensor<2x64x13x0xf32>
  return %v0 : tensor<2x64x13x0xf32>
}

// permuted, expanded and new dims in one op
// CHECK-LABEL: func @broadcast_mixed_dims(
func.func @broadcast_mixed_dims(%arg0: tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, j, l, n])->([i, j, k, m, n, o]) {i=2, j=5, k=3, l=1, m=11, n=7, o=13}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 1, 3, 4] : (tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32>
  return %v0 : tensor<2x5x3x11x7x13xf32>
}

// a new result dim is a factor of the result only
// CHECK-LABEL: func @broadcast_new_middle_dim(
func.func @broadcast_new_middle_dim(%arg0: tensor<2x13x1xf32>) -> tensor<2x64x13x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=1}>}
  %v0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 3] : (tensor<2x13x1xf32>) -> tensor<2x64x13x1xf32>
  return %v0 : tensor<2x64x13x1xf32>
}

// min, operand and max share every factor
// CHECK-LABEL: func @clamp_same_shapes(
func.func @clamp_same_shapes(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.clamp %arg0, %arg1, %arg2 : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// scalar bounds take no part
// CHECK-LABEL: func @clamp_scalar_bounds(
func.func @clamp_scalar_bounds(%arg0: tensor<f32>, %arg1: tensor<4x8xf32>, %arg2: tensor<f32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// pieces of coprime sizes
// CHECK-LABEL: func @concat_coprime_pieces(
func.func @concat_coprime_pieces(%arg0: tensor<4x3x256xf32>, %arg1: tensor<4x5x256xf32>) -> tensor<4x8x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x3x256xf32>, tensor<4x5x256xf32>) -> tensor<4x8x256xf32>
  return %v0 : tensor<4x8x256xf32>
}

// two equal pieces
// CHECK-LABEL: func @concat_equal_pieces(
func.func @concat_equal_pieces(%arg0: tensor<4x16x256xf32>, %arg1: tensor<4x16x256xf32>) -> tensor<4x32x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=32, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x32x256xf32>
  return %v0 : tensor<4x32x256xf32>
}

// every piece a slice: the dim permutes
// CHECK-LABEL: func @concat_of_two_slices(
func.func @concat_of_two_slices(%arg0: tensor<4x40x256xf32>, %arg1: tensor<4x60x256xf32>) -> tensor<4x80x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.slice %arg1 [0:4:1, 0:48:1, 0:256:1] : (tensor<4x60x256xf32>) -> tensor<4x48x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} permutation={j}>}
  %v2 = stablehlo.concatenate %v0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
  return %v2 : tensor<4x80x256xf32>
}

// one piece's size divides the other's
// CHECK-LABEL: func @concat_piece_divides_other(
func.func @concat_piece_divides_other(%arg0: tensor<4x32x256xf32>, %arg1: tensor<4x16x256xf32>) -> tensor<4x48x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=48, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x16x256xf32>) -> tensor<4x48x256xf32>
  return %v0 : tensor<4x48x256xf32>
}

// pieces with a common divisor
// CHECK-LABEL: func @concat_pieces_common_divisor(
func.func @concat_pieces_common_divisor(%arg0: tensor<4x32x256xf32>, %arg1: tensor<4x48x256xf32>) -> tensor<4x80x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
  return %v0 : tensor<4x80x256xf32>
}

// one piece is no slice: the dim needs replication
// CHECK-LABEL: func @concat_slice_and_negate(
func.func @concat_slice_and_negate(%arg0: tensor<4x40x256xf32>, %arg1: tensor<4x60x256xf32>) -> tensor<4x92x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.negate %arg1 : tensor<4x60x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=92, k=256} need_replication={j}>}
  %v2 = stablehlo.concatenate %v0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x60x256xf32>) -> tensor<4x92x256xf32>
  return %v2 : tensor<4x92x256xf32>
}

// slices of the tensor around the tensor itself: the dim permutes
// CHECK-LABEL: func @concat_slices_around_source(
func.func @concat_slices_around_source(%arg0: tensor<4x40x256xf32>) -> tensor<4x96x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.slice %arg0 [0:4:1, 0:24:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x24x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} permutation={j}>}
  %v2 = stablehlo.concatenate %v0, %arg0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x40x256xf32>, tensor<4x24x256xf32>) -> tensor<4x96x256xf32>
  return %v2 : tensor<4x96x256xf32>
}

// slices of two tensors besides a whole one: the dim needs replication
// CHECK-LABEL: func @concat_slices_of_two_tensors(
func.func @concat_slices_of_two_tensors(%arg0: tensor<4x40x256xf32>, %arg1: tensor<4x60x256xf32>) -> tensor<4x96x256xf32> {
  %v0 = stablehlo.slice %arg0 [0:4:1, 0:32:1, 0:256:1] : (tensor<4x40x256xf32>) -> tensor<4x32x256xf32>
  %v1 = stablehlo.slice %arg1 [0:4:1, 0:24:1, 0:256:1] : (tensor<4x60x256xf32>) -> tensor<4x24x256xf32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} need_replication={j}>}
  %v2 = stablehlo.concatenate %v0, %arg0, %v1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x40x256xf32>, tensor<4x24x256xf32>) -> tensor<4x96x256xf32>
  return %v2 : tensor<4x96x256xf32>
}

// a tensor with a slice of itself: the dim permutes
// CHECK-LABEL: func @concat_tensor_and_its_slice(
func.func @concat_tensor_and_its_slice(%arg0: tensor<4x64xbf16>) -> tensor<10x64xbf16> {
  %v0 = stablehlo.slice %arg0 [0:2:1, 0:64:1] : (tensor<4x64xbf16>) -> tensor<2x64xbf16>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=10, j=64} permutation={i}>}
  %v1 = stablehlo.concatenate %arg0, %v0, %arg0, dim = 0 : (tensor<4x64xbf16>, tensor<2x64xbf16>, tensor<4x64xbf16>) -> tensor<10x64xbf16>
  return %v1 : tensor<10x64xbf16>
}

// one tensor three times, no slice: the dim needs replication
// CHECK-LABEL: func @concat_tensor_thrice(
func.func @concat_tensor_thrice(%arg0: tensor<4x64xbf16>) -> tensor<12x64xbf16> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=12, j=64} need_replication={i}>}
  %v0 = stablehlo.concatenate %arg0, %arg0, %arg0, dim = 0 : (tensor<4x64xbf16>, tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<12x64xbf16>
  return %v0 : tensor<12x64xbf16>
}

// pieces of size 1 along the dim
// CHECK-LABEL: func @concat_unit_pieces(
func.func @concat_unit_pieces(%arg0: tensor<4x1x256xf32>, %arg1: tensor<4x1x256xf32>, %arg2: tensor<4x1x256xf32>) -> tensor<4x3x256xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=3, k=256} need_replication={j}>}
  %v0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 1 : (tensor<4x1x256xf32>, tensor<4x1x256xf32>, tensor<4x1x256xf32>) -> tensor<4x3x256xf32>
  return %v0 : tensor<4x3x256xf32>
}

// a custom_call's own rule, printed as the user's (custom)
// CHECK-LABEL: func @custom_call_own_rule(
func.func @custom_call_own_rule(%arg0: tensor<4x2xf32>) -> tensor<2x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>}
  %v0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, custom>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return %v0 : tensor<2x4xf32>
}

// a batch dim, then free dims, then the contracted one
// CHECK-LABEL: func @dot_general_batched_matmul(
func.func @dot_general_batched_matmul(%arg0: tensor<4x8x32xf32>, %arg1: tensor<4x32x16xf32>) -> tensor<4x8x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}>}
  %v0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %v0 : tensor<4x8x16xf32>
}

// contracting dims only
// CHECK-LABEL: func @dot_general_matmul(
func.func @dot_general_matmul(%arg0: tensor<8x32xf32>, %arg1: tensor<32x16xf32>) -> tensor<8x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>}
  %v0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %v0 : tensor<8x16xf32>
}

// batch and contracting dims listed out of order on both sides
// CHECK-LABEL: func @dot_general_permuted_dims(
func.func @dot_general_permuted_dims(%arg0: tensor<2x4x8x4x64x32xf32>, %arg1: tensor<16x32x64x4x2xf32>) -> tensor<2x4x8x4x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l, o, n], [m, n, o, j, i])->([i, j, k, l, m]) {i=2, j=4, k=8, l=4, m=16, n=32, o=64} reduction={n, o}>}
  %v0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 1] x [4, 3], contracting_dims = [5, 4] x [1, 2] : (tensor<2x4x8x4x64x32xf32>, tensor<16x32x64x4x2xf32>) -> tensor<2x4x8x4x16xf32>
  return %v0 : tensor<2x4x8x4x16xf32>
}

// stablehlo.dot of two vectors: one reduction factor
// CHECK-LABEL: func @dot_inner_product(
func.func @dot_inner_product(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>) -> tensor<f32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([]) {i=32} reduction={i}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<32xf32>, tensor<32xf32>) -> tensor<f32>
  return %v0 : tensor<f32>
}

// stablehlo.dot of two matrices
// CHECK-LABEL: func @dot_matmul(
func.func @dot_matmul(%arg0: tensor<8x32xf32>, %arg1: tensor<32x16xf32>) -> tensor<8x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %v0 : tensor<8x16xf32>
}

// stablehlo.dot, vector on the right
// CHECK-LABEL: func @dot_matrix_times_vector(
func.func @dot_matrix_times_vector(%arg0: tensor<8x32xf32>, %arg1: tensor<32xf32>) -> tensor<8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j])->([i]) {i=8, j=32} reduction={j}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8xf32>
  return %v0 : tensor<8xf32>
}

// stablehlo.dot, vector on the left
// CHECK-LABEL: func @dot_vector_times_matrix(
func.func @dot_vector_times_matrix(%arg0: tensor<32xf32>, %arg1: tensor<32x16xf32>) -> tensor<16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([j], [j, i])->([i]) {i=16, j=32} reduction={j}>}
  %v0 = stablehlo.dot %arg0, %arg1 : (tensor<32xf32>, tensor<32x16xf32>) -> tensor<16xf32>
  return %v0 : tensor<16xf32>
}

// padded dims (negative edges too) permute
// CHECK-LABEL: func @pad_two_dims(
func.func @pad_two_dims(%arg0: tensor<28x28x16xf32>, %arg1: tensor<f32>) -> tensor<30x26x16xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j}>}
  %v0 = stablehlo.pad %arg0, %arg1, low = [1, -1, 0], high = [1, -1, 0], interior = [0, 0, 0] : (tensor<28x28x16xf32>, tensor<f32>) -> tensor<30x26x16xf32>
  return %v0 : tensor<30x26x16xf32>
}

// a size-1 dim that is not reduced maps through
// CHECK-LABEL: func @reduce_keeps_unit_dim(
func.func @reduce_keeps_unit_dim(%arg0: tensor<2x64x1x13xf32>) -> tensor<2x1x13xf32> {
  // CHECK: stablehlo.constant
  // CHECK-NOT: sdy.sharding_rule
  %v0 = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [])->([i, k, l]) {i=2, j=64, k=1, l=13} reduction={j}>}
  %v1 = stablehlo.reduce(%arg0 init: %v0) applies stablehlo.add across dimensions = [1] : (tensor<2x64x1x13xf32>, tensor<f32>) -> tensor<2x1x13xf32>
  return %v1 : tensor<2x1x13xf32>
}

// the reduced dim is a reduction factor of the operand only
// CHECK-LABEL: func @reduce_middle_dim(
func.func @reduce_middle_dim(%arg0: tensor<2x64x13xf32>) -> tensor<2x13xf32> {
  // CHECK: stablehlo.constant
  // CHECK-NOT: sdy.sharding_rule
  %v0 = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, k]) {i=2, j=64, k=13} reduction={j}>}
  %v1 = stablehlo.reduce(%arg0 init: %v0) applies stablehlo.add across dimensions = [1] : (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>
  return %v1 : tensor<2x13xf32>
}

// a swap, then a merge
// CHECK-LABEL: func @reshape_merge_swapped(
func.func @reshape_merge_swapped(%arg0: tensor<2x3x8xf32>) -> tensor<3x4x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, mn])->([j, lm, n]) {i=2, j=3, k=3, l=2, m=2, n=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<2x3x8xf32>) -> tensor<3x4x4xf32>
  return %v0 : tensor<3x4x4xf32>
}

// a merge followed by a new size-1 dim
// CHECK-LABEL: func @reshape_merge_then_unit(
func.func @reshape_merge_then_unit(%arg0: tensor<8x4xf32>) -> tensor<32x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij, k]) {i=8, j=4, k=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<8x4xf32>) -> tensor<32x1xf32>
  return %v0 : tensor<32x1xf32>
}

// two dims merged into one
// CHECK-LABEL: func @reshape_merge_two(
func.func @reshape_merge_two(%arg0: tensor<2x4xf32>) -> tensor<8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<2x4xf32>) -> tensor<8xf32>
  return %v0 : tensor<8xf32>
}

// size-1 dims on both sides, each its own unit factor
// CHECK-LABEL: func @reshape_moves_unit_dims(
func.func @reshape_moves_unit_dims(%arg0: tensor<1x8x4xf32>) -> tensor<8x1x4x1xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l])->([j, k, l, m]) {i=1, j=8, k=1, l=4, m=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<1x8x4xf32>) -> tensor<8x1x4x1xf32>
  return %v0 : tensor<8x1x4x1xf32>
}

// a split of a dim next to a size-1 dim
// CHECK-LABEL: func @reshape_split_from_unit(
func.func @reshape_split_from_unit(%arg0: tensor<32x1xf32>) -> tensor<8x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, j]) {i=8, j=4, k=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<32x1xf32>) -> tensor<8x4xf32>
  return %v0 : tensor<8x4xf32>
}

// one dim split in three
// CHECK-LABEL: func @reshape_split_in_three(
func.func @reshape_split_in_three(%arg0: tensor<4x12xf32>) -> tensor<4x2x3x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, jkl])->([i, j, k, l]) {i=4, j=2, k=3, l=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<4x12xf32>) -> tensor<4x2x3x2xf32>
  return %v0 : tensor<4x2x3x2xf32>
}

// one dim split in two
// CHECK-LABEL: func @reshape_split_in_two(
func.func @reshape_split_in_two(%arg0: tensor<8xf32>) -> tensor<2x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>
  return %v0 : tensor<2x4xf32>
}

// a split, a swap and a merge
// CHECK-LABEL: func @reshape_split_swap_merge(
func.func @reshape_split_swap_merge(%arg0: tensor<4x7x5x8xf32>) -> tensor<14x10x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, l, n, o])->([ik, mn, o]) {i=2, j=2, k=7, l=7, m=2, n=5, o=8}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<4x7x5x8xf32>) -> tensor<14x10x8xf32>
  return %v0 : tensor<14x10x8xf32>
}

// a split whose pieces swap places
// CHECK-LABEL: func @reshape_split_swapped(
func.func @reshape_split_swapped(%arg0: tensor<3x4x4xf32>) -> tensor<2x3x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, lm, n])->([j, k, mn]) {i=3, j=2, k=3, l=2, m=2, n=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<3x4x4xf32>) -> tensor<2x3x8xf32>
  return %v0 : tensor<2x3x8xf32>
}

// a split and a merge in one reshape
// CHECK-LABEL: func @reshape_split_then_merge(
func.func @reshape_split_then_merge(%arg0: tensor<8x4x5xf32>) -> tensor<2x16x5xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, l])->([i, jk, l]) {i=2, j=4, k=4, l=5}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<8x4x5xf32>) -> tensor<2x16x5xf32>
  return %v0 : tensor<2x16x5xf32>
}

// a split with a size-1 dim in the middle
// CHECK-LABEL: func @reshape_split_with_unit_between(
func.func @reshape_split_with_unit_between(%arg0: tensor<32xf32>) -> tensor<8x1x4xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ik])->([i, j, k]) {i=8, j=1, k=4}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<8x1x4xf32>
  return %v0 : tensor<8x1x4xf32>
}

// a swap with shared dims before and between
// CHECK-LABEL: func @reshape_swap_around_shared_dims(
func.func @reshape_swap_around_shared_dims(%arg0: tensor<5x2x5x3xf32>) -> tensor<5x3x5x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l, n])->([i, k, m, o]) {i=5, j=2, k=3, l=5, m=5, n=3, o=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<5x2x5x3xf32>) -> tensor<5x3x5x2xf32>
  return %v0 : tensor<5x3x5x2xf32>
}

// swapped coprime sizes: nothing shared
// CHECK-LABEL: func @reshape_swap_coprime(
func.func @reshape_swap_coprime(%arg0: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, l])->([j, k]) {i=3, j=2, k=3, l=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %v0 : tensor<2x3xf32>
}

// swapped sizes share their common divisor
// CHECK-LABEL: func @reshape_swap_sharing_divisor(
func.func @reshape_swap_sharing_divisor(%arg0: tensor<6x4xf32>) -> tensor<4x6xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %v0 : tensor<4x6xf32>
}

// two unit dims, each a unit factor
// CHECK-LABEL: func @reshape_to_scalar(
func.func @reshape_to_scalar(%arg0: tensor<1x1xf32>) -> tensor<f32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1}>}
  %v0 = stablehlo.reshape %arg0 : (tensor<1x1xf32>) -> tensor<f32>
  return %v0 : tensor<f32>
}

// no elements: no rule
// CHECK-LABEL: func @reshape_without_elements(
func.func @reshape_without_elements(%arg0: tensor<4x0xf32>) -> tensor<0x8xf32> {
  // CHECK: stablehlo.reshape
  // CHECK-NOT: sdy.sharding_rule
  %v0 = stablehlo.reshape %arg0 : (tensor<4x0xf32>) -> tensor<0x8xf32>
  return %v0 : tensor<0x8xf32>
}

// reversed dims permute
// CHECK-LABEL: func @reverse_two_dims(
func.func @reverse_two_dims(%arg0: tensor<4x32x8x2xf32>) -> tensor<4x32x8x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, j, k, l]) {i=4, j=32, k=8, l=2} permutation={j, l}>}
  %v0 = stablehlo.reverse %arg0, dims = [1, 3] : tensor<4x32x8x2xf32>
  return %v0 : tensor<4x32x8x2xf32>
}

// predicate of the operands' shape
// CHECK-LABEL: func @select_elementwise_pred(
func.func @select_elementwise_pred(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.select %arg0, %arg1, %arg2 : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// a scalar predicate takes no part
// CHECK-LABEL: func @select_scalar_pred(
func.func @select_scalar_pred(%arg0: tensor<i1>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=4, j=8}>}
  %v0 = stablehlo.select %arg0, %arg1, %arg2 : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// sliced dims permute
// CHECK-LABEL: func @slice_two_dims(
func.func @slice_two_dims(%arg0: tensor<32x4x8xf32>) -> tensor<32x1x2xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k}>}
  %v0 = stablehlo.slice %arg0 [0:32:1, 1:2:1, 4:8:2] : (tensor<32x4x8xf32>) -> tensor<32x1x2xf32>
  return %v0 : tensor<32x1x2xf32>
}

// each result dim's factor on its operand dim
// CHECK-LABEL: func @transpose_four_dims(
func.func @transpose_four_dims(%arg0: tensor<256x32x64x100xf32>) -> tensor<100x32x256x64xf32> {
  // CHECK: {sdy.sharding_rule = #sdy.op_sharding_rule<([k, j, l, i])->([i, j, k, l]) {i=100, j=32, k=256, l=64}>}
  %v0 = stablehlo.transpose %arg0, dims = [3, 1, 0, 2] : (tensor<256x32x64x100xf32>) -> tensor<100x32x256x64xf32>
  return %v0 : tensor<100x32x256x64xf32>
}
