module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%input0: tensor<2x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %input1: tensor<2x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x2xi64>) {
  %result = "stablehlo.map"(%input0, %input1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.multiply %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    dimensions = array<i64: 0, 1>
  } : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
    return %result : tensor<2x2xi64>
  }
}
