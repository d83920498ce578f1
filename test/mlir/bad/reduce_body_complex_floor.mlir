func.func @main(%x: tensor<4xcomplex<f32>>, %z: tensor<complex<f32>>) -> tensor<complex<f32>> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    reducer(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>) {
      %re = stablehlo.real %a : (tensor<complex<f32>>) -> tensor<f32>
      %f = stablehlo.floor %b : tensor<complex<f32>>
      %s = stablehlo.add %a, %f : tensor<complex<f32>>
      stablehlo.return %s : tensor<complex<f32>>
    }
  return %0 : tensor<complex<f32>>
}
