module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%result_branch0: tensor<2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %result_branch1: tensor<2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xi64>, tensor<2xi64>) {
  %index = stablehlo.constant dense<-1> : tensor<i32>
  %result0, %result1 = "stablehlo.case"(%index) ({
    stablehlo.return %result_branch0, %result_branch0 : tensor<2xi64>, tensor<2xi64>
  }, {
    stablehlo.return %result_branch1, %result_branch1 : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
    return %result0, %result1 : tensor<2xi64>, tensor<2xi64>
  }
}
