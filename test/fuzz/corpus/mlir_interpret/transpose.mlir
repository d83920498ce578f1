module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%0: tensor<2x3x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) -> (tensor<3x2x2xi32>) {
  %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 1,0,2>} : (tensor<2x3x2xi32>) -> tensor<3x2x2xi32>
    return %1 : tensor<3x2x2xi32>
  }
}
