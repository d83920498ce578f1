func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%i) ({
  ^bb0(%a: tensor<4xf32>):
    stablehlo.return %a : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
