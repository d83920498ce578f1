module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xi64>) {
  %result = stablehlo.popcnt %operand : tensor<4xi64>
    return %result : tensor<4xi64>
  }
}
