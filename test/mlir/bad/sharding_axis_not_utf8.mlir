sdy.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x\ff"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
