sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xi3>) -> tensor<4xi3> {
  return %x : tensor<4xi3>
}
