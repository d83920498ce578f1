sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.cholesky %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
