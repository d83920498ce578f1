module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<2x2x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %rhs: tensor<2x2x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) -> (tensor<2x2x2xi64>) {
  %result = stablehlo.dot_general %lhs, %rhs,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT]
    : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
    return %result : tensor<2x2x2xi64>
  }
}
