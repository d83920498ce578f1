module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<4xi2> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %1: tensor<4xi2> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xi2>) {
  %2 = stablehlo.add %0, %1 : tensor<4xi2>
    return %2 : tensor<4xi2>
  }
}
