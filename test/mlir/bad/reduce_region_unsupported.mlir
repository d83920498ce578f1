sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %s = stablehlo.subtract %a, %b : tensor<f32>
      %t = stablehlo.reshape %s : (tensor<f32>) -> tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  return %0 : tensor<f32>
}
