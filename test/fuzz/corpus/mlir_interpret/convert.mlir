module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<2xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xi1>) {
  %result = stablehlo.convert %operand : (tensor<2xi1>) -> tensor<2xi1>
    return %result : tensor<2xi1>
  }
}
