module @jit_f {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xi1> {
    %0 = stablehlo.compare  LT, %arg0, %arg0,  ORDERED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %0 : tensor<4xi1>
  }
}
