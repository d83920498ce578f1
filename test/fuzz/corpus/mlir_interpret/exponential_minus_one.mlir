module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xf64>) {
  %result = stablehlo.exponential_minus_one %operand : tensor<2xf64>
    return %result : tensor<2xf64>
  }
}
