module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<5xi4> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %1: tensor<5xi4> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<5xi4>) {
  %2 = stablehlo.subtract %0, %1 : tensor<5xi4>
    return %2 : tensor<5xi4>
  }
}
