module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%input: tensor<1x6xi64> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<1xi64>) {
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.reduce"(%input, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    dimensions = array<i64: 1>
  } : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>
    return %result : tensor<1xi64>
  }
}
