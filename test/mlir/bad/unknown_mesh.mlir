sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@other, [{"a"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
