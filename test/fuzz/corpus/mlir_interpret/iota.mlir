module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main() -> (tensor<3x4xi4>) {
  %0 = stablehlo.iota dim = 0 : tensor<3x4xi4>
    return %0 : tensor<3x4xi4>
  }
}
