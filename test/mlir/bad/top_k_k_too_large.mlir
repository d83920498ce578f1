module @jit_f {
  func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>) {
    %values, %indices = chlo.top_k(%arg0, k = 9) : tensor<4x8xf32> -> (tensor<4x9xf32>, tensor<4x9xi32>)
    return %values, %indices : tensor<4x9xf32>, tensor<4x9xi32>
  }
}
