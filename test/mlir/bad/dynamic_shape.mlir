sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
