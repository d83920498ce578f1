module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<3x3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<3x3xi64>) {
  %start_indices0 = stablehlo.constant dense<3> : tensor<i64>
  %start_indices1 = stablehlo.constant dense<3> : tensor<i64>
  %result = "stablehlo.dynamic_slice"(%operand, %start_indices0, %start_indices1) {
    slice_sizes = array<i64: 3, 3>
  } : (tensor<3x3xi64>, tensor<i64>, tensor<i64>) -> tensor<3x3xi64>
    return %result : tensor<3x3xi64>
  }
}
