module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<3x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<3x2xi64>) {
  %result = "stablehlo.reverse"(%operand) {
    dimensions = array<i64: 1, 0>
  } : (tensor<3x2xi64>) -> tensor<3x2xi64>
    return %result : tensor<3x2xi64>
  }
}
