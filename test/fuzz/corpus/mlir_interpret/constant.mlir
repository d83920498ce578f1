module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main() -> (tensor<4xi2>) {
  %0 = stablehlo.constant dense<[-2, -1, 0, 1]> : tensor<4xi2>
    return %0 : tensor<4xi2>
  }
}
