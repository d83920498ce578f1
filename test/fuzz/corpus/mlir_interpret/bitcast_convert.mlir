module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<64xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<i64>) {
  %result = stablehlo.bitcast_convert %operand : (tensor<64xi1>) -> tensor<i64>
    return %result : tensor<i64>
  }
}
