module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xf64>) {
  %1 = stablehlo.real %0 : tensor<2xf64>
    return %1 : tensor<2xf64>
  }
}
