sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0:2 = stablehlo.reduce(%x init: %z), (%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {
      %s = stablehlo.add %a, %c : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0#0 : tensor<f32>
}
