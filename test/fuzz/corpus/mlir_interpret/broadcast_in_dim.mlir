module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<3x1xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<3x2x2xi64>) {
  %result = "stablehlo.broadcast_in_dim"(%operand) {
    broadcast_dimensions = array<i64: 0, 2>
  } : (tensor<3x1xi64>) -> tensor<3x2x2xi64>
    return %result : tensor<3x2x2xi64>
  }
}
