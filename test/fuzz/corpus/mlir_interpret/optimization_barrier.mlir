module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main() -> (tensor<f32>, tensor<f32>) {
  %operand0 = stablehlo.constant dense<0.0> : tensor<f32>
  %operand1 = stablehlo.constant dense<1.0> : tensor<f32>
  %result0, %result1 = stablehlo.optimization_barrier %operand0, %operand1 : tensor<f32>, tensor<f32>
    return %result0, %result1 : tensor<f32>, tensor<f32>
  }
}
