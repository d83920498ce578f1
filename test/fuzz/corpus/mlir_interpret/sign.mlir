module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi64>) {
  %result = stablehlo.sign %operand : tensor<3xi64>
    return %result : tensor<3xi64>
  }
}
