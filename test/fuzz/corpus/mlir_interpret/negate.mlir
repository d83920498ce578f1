module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<5xi4> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<5xi4>) {
  %1 = stablehlo.negate %0 : tensor<5xi4>
    return %1 : tensor<5xi4>
  }
}
