sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
  return %x : tensor<4xf32>
}
