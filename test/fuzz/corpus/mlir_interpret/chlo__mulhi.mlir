module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<3xi8> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %rhs: tensor<3xi8> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<3xi8>) {
  %result = "chlo.mulhi"(%lhs, %rhs) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
    return %result : tensor<3xi8>
  }
}
