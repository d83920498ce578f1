// fft in JAX's form (two spaces before the type) and the generic one, every type.
func.func @main(%x: tensor<4x8xf32>, %z: tensor<2x3x5xcomplex<f64>>) -> (tensor<4x8xf32>, tensor<2x3x5xcomplex<f64>>) {
  %0 = stablehlo.fft %x, type =  RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  %1 = "stablehlo.fft"(%0) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type IRFFT>}> : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
  %2 = stablehlo.fft %z, type =  FFT, length = [3, 5] : (tensor<2x3x5xcomplex<f64>>) -> tensor<2x3x5xcomplex<f64>>
  %3 = "stablehlo.fft"(%2) {fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 2, 3, 5>} : (tensor<2x3x5xcomplex<f64>>) -> tensor<2x3x5xcomplex<f64>>
  return %1, %3 : tensor<4x8xf32>, tensor<2x3x5xcomplex<f64>>
}
