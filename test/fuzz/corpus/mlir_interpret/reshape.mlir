module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<1x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<6xi32>) {
  %1 = stablehlo.reshape %0 : (tensor<1x6xi32>) -> tensor<6xi32>
    return %1 : tensor<6xi32>
  }
}
