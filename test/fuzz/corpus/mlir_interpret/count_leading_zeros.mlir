module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<2x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x2xi64>) {
  %result = stablehlo.count_leading_zeros %operand : tensor<2x2xi64>
    return %result : tensor<2x2xi64>
  }
}
