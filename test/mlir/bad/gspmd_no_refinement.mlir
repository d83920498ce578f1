func.func @main(%x: tensor<6x6xf32> {mhlo.sharding = "{devices=[2,3]<=[6]}"}, %y: tensor<6x6xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"}) -> tensor<6x6xf32> {
  return %x : tensor<6x6xf32>
}
