module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %rhs: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xi64>) {
  %result = stablehlo.divide %lhs, %rhs : tensor<4xi64>
    return %result : tensor<4xi64>
  }
}
