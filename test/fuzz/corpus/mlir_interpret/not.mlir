module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<3xi4> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi4>) {
  %1 = stablehlo.not %0 : tensor<3xi4>
    return %1 : tensor<3xi4>
  }
}
