sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xi4>) -> tensor<4xi4> {
  return %x : tensor<4xi4>
}
