sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func private @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
