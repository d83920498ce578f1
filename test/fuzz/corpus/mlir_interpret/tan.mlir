module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<4xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf64>) {
  %1 = stablehlo.tan %0 : tensor<4xf64>
    return %1 : tensor<4xf64>
  }
}
