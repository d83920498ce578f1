module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<9xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<9xbf16>) {
  %1 = stablehlo.ceil %0 : tensor<9xbf16>
    return %1 : tensor<9xbf16>
  }
}
