sdy.mesh @mesh = <["x"=2, "y\ab"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
