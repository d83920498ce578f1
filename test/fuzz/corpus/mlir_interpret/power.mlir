module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<6xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %rhs: tensor<6xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<6xi64>) {
  %result = stablehlo.power %lhs, %rhs : tensor<6xi64>
    return %result : tensor<6xi64>
  }
}
