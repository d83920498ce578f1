sdy.mesh @mesh = <["a"=2, "b) -> tenso#loc1 = loc(r<4xf32> {
  %0 = stablehlo.add %x, %y : (tensor<4xf32>, tensor<Ì‡™Î2>) ->"=2]>
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.tanh %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
