module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<5xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<5xf64>) {
  %result = stablehlo.log_plus_one %operand : tensor<5xf64>
    return %result : tensor<5xf64>
  }
}
