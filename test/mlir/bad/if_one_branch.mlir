func.func @main(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
