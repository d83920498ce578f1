module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %rhs: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi64>) {
  %result = stablehlo.shift_right_arithmetic %lhs, %rhs : tensor<3xi64>
    return %result : tensor<3xi64>
  }
}
