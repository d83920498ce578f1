module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%operand: tensor<5x4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %low: tensor<2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %high: tensor<2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %interior: tensor<2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<7x5xi64>) {
  %padding_value = stablehlo.constant dense<-1> : tensor<i64>
  %result = stablehlo.dynamic_pad %operand, %padding_value, %low, %high, %interior
    : (tensor<5x4xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x5xi64>
    return %result : tensor<7x5xi64>
  }
}
