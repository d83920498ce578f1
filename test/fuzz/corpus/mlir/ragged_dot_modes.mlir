module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %rhs: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %gs: tensor<3xi32>) -> (tensor<3x8x4xf32>, tensor<8x4xf32>) {
    %0 = "chlo.ragged_dot"(%lhs, %rhs, %gs) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = []>}> : (tensor<8x6xf32>, tensor<6x4xf32>, tensor<3xi32>) -> tensor<3x8x4xf32>
    %w = stablehlo.reshape %0 : (tensor<3x8x4xf32>) -> tensor<3x8x4xf32>
    %e = stablehlo.constant dense<1.0> : tensor<3x6x4xf32>
    %1 = "chlo.ragged_dot"(%lhs, %e, %gs) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<8x6xf32>, tensor<3x6x4xf32>, tensor<3xi32>) -> tensor<8x4xf32>
    return %w, %1 : tensor<3x8x4xf32>, tensor<8x4xf32>
  }
}
