sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<[1.5, 2, 3, 4]> : tensor<4xi32>
  return %x : tensor<4xf32>
}
