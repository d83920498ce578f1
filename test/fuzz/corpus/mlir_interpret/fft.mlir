module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<2xcomplex<f64>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xcomplex<f64>>) {
  %result = stablehlo.fft %operand, type = FFT, length = [2] : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
    return %result : tensor<2xcomplex<f64>>
  }
}
