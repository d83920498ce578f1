module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<4x4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %update: tensor<2x3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x4xi64>) {
  %start_indices0 = stablehlo.constant dense<4> : tensor<i64>
  %start_indices1 = stablehlo.constant dense<4> : tensor<i64>
  %result = stablehlo.dynamic_update_slice %operand, %update, %start_indices0, %start_indices1 :
      (tensor<4x4xi64>, tensor<2x3xi64>, tensor<i64>, tensor<i64>) -> tensor<4x4xi64>
    return %result : tensor<4x4xi64>
  }
}
