func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.while(%a = %x) : tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }
  func.return %0 : tensor<4xf32>
}
