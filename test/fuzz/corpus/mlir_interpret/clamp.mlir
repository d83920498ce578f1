module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%min: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %operand: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %max: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi64>) {
  %result = stablehlo.clamp %min, %operand, %max : (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    return %result : tensor<3xi64>
  }
}
