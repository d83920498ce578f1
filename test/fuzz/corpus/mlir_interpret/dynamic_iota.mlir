module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%output_shape: tensor<2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3x4xi64>) {
  %0 = stablehlo.dynamic_iota %output_shape, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>
    return %0 : tensor<3x4xi64>
  }
}
