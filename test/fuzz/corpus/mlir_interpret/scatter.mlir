module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%inputs: tensor<3x4x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %scatter_indices: tensor<2x3x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %updates: tensor<2x3x2x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) -> (tensor<3x4x2xi64>, tensor<3x4x2xi64>) {
  %result = "stablehlo.scatter"(%inputs, %scatter_indices, %updates) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [2, 3],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [1, 0],
      index_vector_dim = 2>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
    return %result, %inputs : tensor<3x4x2xi64>, tensor<3x4x2xi64>
  }
}
