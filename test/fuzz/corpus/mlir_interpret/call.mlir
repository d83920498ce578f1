module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @add_2(%arg0: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.constant dense<2> : tensor<i64>
  %1 = stablehlo.add %arg0, %0 : tensor<i64>
  func.return %1 : tensor<i64>
}
  func.func @main() -> (tensor<i64>) {
  %0 = stablehlo.constant dense<1> : tensor<i64>
  %1 = func.call @add_2(%0) : (tensor<i64>) -> tensor<i64>
    return %1 : tensor<i64>
  }
}
