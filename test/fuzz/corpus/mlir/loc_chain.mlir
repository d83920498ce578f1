#loc3 = loc("f.py":3:1)
func.func @main(%x: tensor<4xf32> loc(#loc1)) -> tensor<4xf32> {
  %0 = stablehlo.negate %x {shardgen.metadata = "{\"_m\": [[{\"_n\": [1, 2]}]]}"} : tensor<4xf32> loc(#loc0)
  %1 = call @g(%0) : (tensor<4xf32>) -> tensor<4xf32> loc(#loc2)
  %2 = call @g(%1) : (tensor<4xf32>) -> tensor<4xf32> loc(#loc2)
  return %2 : tensor<4xf32> loc(#loc0)
}
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @h(%a) : (tensor<4xf32>) -> tensor<4xf32> loc(#loc1)
  %1 = call @h(%0) : (tensor<4xf32>) -> tensor<4xf32> loc(#loc1)
  return %1 : tensor<4xf32>
}
func.func private @h(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %a : tensor<4xf32> loc(#loc3)
  return %0 : tensor<4xf32>
}
#loc0 = loc(fused[#loc1, #loc1, #loc2])
#loc1 = loc("a"(#loc2))
#loc2 = loc(fused[#loc3, #loc3, "name"])
