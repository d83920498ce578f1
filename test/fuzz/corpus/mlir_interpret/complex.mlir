module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%lhs: tensor<2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %rhs: tensor<2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xcomplex<f64>>) {
  %result = stablehlo.complex %lhs, %rhs : tensor<2xcomplex<f64>>
    return %result : tensor<2xcomplex<f64>>
  }
}
