// RUN: shardgen propagate %s --format mlir --strategy basic | FileCheck %s
//
// Basic propagation printed in Shardy's form (`propagate --format mlir`): the
// user's dims keep their open/closed state, propagated dims are open, values
// no axis reaches stay unannotated. The expected shardings are the facts of
// Shardy's basic_propagation.mlir (functions named in the comments).

sdy.mesh @m = <["x"=2, "y"=2]>
sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @m4x2 = <["x"=4, "y"=2]>
sdy.mesh @odd = <["x"=3]>

// A closed input sharding reaches an add and, through its free dim, a matmul
// (basic_propagation: simple).
// CHECK-LABEL: func @add_then_matmul(
// CHECK-SAME: %lhs: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
// CHECK-SAME: %bias: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {"y", ?}]>},
// CHECK-SAME: %rhs: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}, {?}]>})
// CHECK-SAME: -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>}) {
func.func @add_then_matmul(%lhs: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
                           %bias: tensor<8x8xf32>, %rhs: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT: %[[SUM:.*]] = stablehlo.add %lhs, %bias {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {"y", ?}]>]>}
  // CHECK-NEXT: stablehlo.dot_general %[[SUM]], %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>}
  %sum = stablehlo.add %lhs, %bias : tensor<8x8xf32>
  %out = stablehlo.dot_general %sum, %rhs, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %out : tensor<8x16xf32>
}

// A user's closed empty dim on an op result stays closed and empty; its open
// dim takes the axis (basic_propagation: closed_dim).
// CHECK-LABEL: func @closed_result_dim(
func.func @closed_result_dim(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>},
                             %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  // CHECK-NEXT: stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y", ?}]>]>}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {?}]>]>} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// A constraint shards its operand backwards and its users forwards; it keeps
// its own (closed) dims (basic_propagation: propagate_from_sharding_constraint).
// CHECK-LABEL: func @constraint_in_the_middle(
// CHECK-SAME: %in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>}) {
func.func @constraint_in_the_middle(%in: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %in <@m, [{"x"}, {?}]>
  // CHECK-NEXT: stablehlo.add %[[C]], %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>}
  %c = sdy.sharding_constraint %in <@m, [{"x"}, {?}]> : tensor<8x8xf32>
  %twice = stablehlo.add %c, %c : tensor<8x8xf32>
  return %twice : tensor<8x8xf32>
}

// A constraint with open dims takes what reaches it
// (basic_propagation: propagate_to_sharding_constraint).
// CHECK-LABEL: func @open_constraint_filled(
func.func @open_constraint_filled(%in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.sharding_constraint %in <@m, [{"x", ?}, {?}]>
  %c = sdy.sharding_constraint %in <@m, [{?}, {?}]> : tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// Basic propagation takes only what all operands agree on: the common major
// axis of two adds' operands, nothing where they differ from the start
// (basic_propagation: multi_axes_conflict).
// CHECK-LABEL: func @common_prefix_only(
func.func @common_prefix_only(%p: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"y", "x"}, {}]>},
                              %q: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"y", "z"}, {}]>},
                              %r: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // CHECK-NEXT: stablehlo.add %p, %q {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"y", ?}, {?}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: stablehlo.add %p, %r : tensor<8x8xf32>
  %pq = stablehlo.add %p, %q : tensor<8x8xf32>
  %pr = stablehlo.add %p, %r : tensor<8x8xf32>
  return %pq, %pr : tensor<8x8xf32>, tensor<8x8xf32>
}

// A barrier that allows only backward propagation: the result's sharding goes
// back to the argument, the argument's would not go forward
// (basic_propagation: propagation_barrier_backward_just_result_sharding).
// CHECK-LABEL: func @barrier_backward(
// CHECK-SAME: %in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y", ?}, {?}]>})
func.func @barrier_backward(%in: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y", ?}, {?}]>}) {
  // CHECK-NEXT: sdy.propagation_barrier %in allowed_direction=BACKWARD {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"x", "y", ?}, {?}]>]>} : tensor<8x8xf32>
  %b = sdy.propagation_barrier %in allowed_direction=BACKWARD : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// The same barrier stops the argument's sharding going forward: the result
// stays unannotated (basic_propagation: propagation_barrier_backward_just_arg_sharding).
// CHECK-LABEL: func @barrier_blocks_forward(
// CHECK-SAME: -> tensor<8x8xf32> {
func.func @barrier_blocks_forward(%in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", ?}, {"z", ?}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.propagation_barrier %in allowed_direction=BACKWARD : tensor<8x8xf32>
  %b = sdy.propagation_barrier %in allowed_direction=BACKWARD : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// A returned argument: its sharding and the result's are separate edges; each
// keeps its own axes (basic_propagation: direct_arg_return_prefix_axes).
// CHECK-LABEL: func @returned_argument(
// CHECK-SAME: %in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y", ?}, {?}]>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "z", ?}, {?}]>}) {
func.func @returned_argument(%in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y", ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "z", ?}, {?}]>}) {
  return %in : tensor<8x8xf32>
}

// An empty dim still carries its axes (basic_propagation: pointwise_size_zero_dim).
// CHECK-LABEL: func @empty_dim_sharded(
// CHECK-SAME: -> (tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {?}]>}) {
func.func @empty_dim_sharded(%in: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x0xf32> {
  // CHECK-NEXT: stablehlo.add %in, %in {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", ?}, {?}]>]>}
  %0 = stablehlo.add %in, %in : tensor<8x0xf32>
  return %0 : tensor<8x0xf32>
}

// Splitting a dim sharded 4 ways gives each new dim a sub-axis
// (basic_propagation: reshape_split_dim_single_axis_shards_both_factors).
// CHECK-LABEL: func @split_dim_sub_axes(
func.func @split_dim_sub_axes(%in: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m4x2, [{"x"}]>}) -> tensor<2x4xf32> {
  // CHECK-NEXT: stablehlo.reshape %in {sdy.sharding = #sdy.sharding_per_value<[<@m4x2, [{"x":(1)2, ?}, {"x":(2)2, ?}]>]>}
  %0 = stablehlo.reshape %in : (tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// An axis of 3 divides neither new dim: nothing crosses the reshape
// (basic_propagation: non_minor_most_factor_non_divisible).
// CHECK-LABEL: func @split_dim_indivisible(
// CHECK-SAME: %in: tensor<8xf32> {sdy.sharding = #sdy.sharding<@odd, [{"x"}]>})
func.func @split_dim_indivisible(%in: tensor<8xf32> {sdy.sharding = #sdy.sharding<@odd, [{"x"}]>}) -> tensor<2x4xf32> {
  // CHECK-NEXT: stablehlo.reshape %in
  // CHECK-NOT: sdy.sharding
  %0 = stablehlo.reshape %in : (tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// A custom_call's own rule: the blocked factors keep their axes on the
// argument; the need-replication factor that is not blocked propagates
// (basic_propagation: blocked_propagation_factor).
// CHECK-LABEL: func @custom_rule_blocks_factors(
// CHECK-SAME: -> (tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{?}, {"y", ?}, {?}]>}) {
func.func @custom_rule_blocks_factors(%in: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}, {"z"}]>}) -> tensor<8x8x8xf32> {
  // CHECK-NEXT: stablehlo.custom_call @opaque(%in) {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{?}, {"y", ?}, {?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=8, k=8} need_replication={j, k} blocked_propagation={i, k}, custom>}
  %0 = stablehlo.custom_call @opaque(%in) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=8, k=8} need_replication={j, k} blocked_propagation={i, k}, custom>} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// Slices of one tensor put back together in another order: the permuted dim
// keeps its axes (basic_propagation: slice_then_concat).
// CHECK-LABEL: func @rotate_rows(
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y", ?}, {?}]>}) {
func.func @rotate_rows(%in: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[FIRST:.*]] = stablehlo.slice %in [0:1, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y", ?}, {?}]>]>}
  // CHECK-NEXT: %[[REST:.*]] = stablehlo.slice %in [1:8, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y", ?}, {?}]>]>}
  // CHECK-NEXT: stablehlo.concatenate %[[REST]], %[[FIRST]], dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y", ?}, {?}]>]>}
  %first = stablehlo.slice %in [0:1, 0:8] : (tensor<8x8xf32>) -> tensor<1x8xf32>
  %rest = stablehlo.slice %in [1:8, 0:8] : (tensor<8x8xf32>) -> tensor<7x8xf32>
  %rotated = stablehlo.concatenate %rest, %first, dim = 0 : (tensor<7x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
  return %rotated : tensor<8x8xf32>
}
