sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
