sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xi16>) -> tensor<4xi16> {
  return %x : tensor<4xi16>
}
