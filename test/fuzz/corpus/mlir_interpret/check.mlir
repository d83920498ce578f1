module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main() -> (tensor<3xi64>, tensor<3xi64>) {
  %operand = stablehlo.constant dense<[-2, 0, 2]> : tensor<3xi64>
  %result = stablehlo.constant dense<[-2, 0, 2]> : tensor<3xi64>
    return %operand, %result : tensor<3xi64>, tensor<3xi64>
  }
}
