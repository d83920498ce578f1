module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%input0: tensor<3x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %input1: tensor<1x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<4x2xi64>) {
  %result = stablehlo.concatenate %input0, %input1, dim = 0 : (tensor<3x2xi64>, tensor<1x2xi64>) -> tensor<4x2xi64>
    return %result : tensor<4x2xi64>
  }
}
