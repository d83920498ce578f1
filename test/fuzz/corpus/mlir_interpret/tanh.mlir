module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<11xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<11xbf16>) {
  %1 = stablehlo.tanh %0 : tensor<11xbf16>
    return %1 : tensor<11xbf16>
  }
}
