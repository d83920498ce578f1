sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x {mhlo.frontend_attributes = {name = "caf\c3\a9 \ff"}} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
