sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32> {shardgen.name = "x) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
