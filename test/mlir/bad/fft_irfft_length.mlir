func.func @main(%arg0: tensor<4x8xcomplex<f64>>) -> tensor<4x8xf64> {
  %0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type IRFFT>}> : (tensor<4x8xcomplex<f64>>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}
