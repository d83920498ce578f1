module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%input0: tensor<2x3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %input1: tensor<2x3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x3xi64>, tensor<2x3xi64>) {
  %result0, %result1 = "stablehlo.sort"(%input0, %input1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>, %arg2: tensor<i64>, %arg3: tensor<i64>):
      %predicate = stablehlo.compare GT, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %predicate : tensor<i1>
  }) {
    dimension = 0 : i64,
    is_stable = true
  } : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)
    return %result0, %result1 : tensor<2x3xi64>, tensor<2x3xi64>
  }
}
