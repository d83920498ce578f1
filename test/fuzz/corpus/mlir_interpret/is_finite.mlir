module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<7xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<7xi1>) {
  %result = stablehlo.is_finite %operand : (tensor<7xf64>) -> tensor<7xi1>
    return %result : tensor<7xi1>
  }
}
