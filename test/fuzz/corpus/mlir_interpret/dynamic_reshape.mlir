module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<1x6xi64> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %output_shape: tensor<1xi64> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<6xi64>) {
  %result = stablehlo.dynamic_reshape %operand, %output_shape : (tensor<1x6xi64>, tensor<1xi64>) -> tensor<6xi64>
    return %result : tensor<6xi64>
  }
}
