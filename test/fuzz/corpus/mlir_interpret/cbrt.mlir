module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<4xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf64>) {
  %result = stablehlo.cbrt %operand : tensor<4xf64>
    return %result : tensor<4xf64>
  }
}
