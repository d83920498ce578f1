module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<3xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %1: tensor<3xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xf64>) {
  %2 = stablehlo.atan2 %0, %1 : tensor<3xf64>
    return %2 : tensor<3xf64>
  }
}
