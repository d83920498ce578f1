func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%i) : (tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
