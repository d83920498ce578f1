module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main() -> (tensor<i1>) {
  %lhs = stablehlo.constant dense<-2> : tensor<i64>
  %rhs = stablehlo.constant dense<-2> : tensor<i64>
  %result = stablehlo.compare EQ, %lhs, %rhs : (tensor<i64>, tensor<i64>) -> tensor<i1>
    return %result : tensor<i1>
  }
}
