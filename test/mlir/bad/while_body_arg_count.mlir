func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %c = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    stablehlo.return %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
