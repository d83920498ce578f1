func.func @main(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %0 = "stablehlo.fft"(%arg0) <{fft_type = #stablehlo<fft_type FFT>}> : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
