func.func @main(%x: tensor<4xf32> {mhlo.sharding = "{{replicated}, {replicated}}"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
