module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<6xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<6xf64>) {
  %output = stablehlo.reduce_precision %operand, format = e5m10 : tensor<6xf64>
    return %output : tensor<6xf64>
  }
}
