module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<2x2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x2xf64>) {
  %result = stablehlo.sqrt %operand : tensor<2x2xf64>
    return %result : tensor<2x2xf64>
  }
}
