module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%pred: tensor<3xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %on_true: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %on_false: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi64>) {
  %result = stablehlo.select %pred, %on_true, %on_false : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    return %result : tensor<3xi64>
  }
}
