module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%val0: tensor<2xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2xf64>, tensor<i64>) {
  %tmp0 = stablehlo.constant dense<3> : tensor<i64>
  %val1 = stablehlo.tuple %tmp0 : tuple<tensor<i64>>
  %operand = stablehlo.tuple %val0, %val1 : tuple<tensor<2xf64>, tuple<tensor<i64>>>
  %result0 = stablehlo.get_tuple_element %operand[0] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tensor<2xf64>
  %tmp1 = stablehlo.get_tuple_element %operand[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %result1 = stablehlo.get_tuple_element %tmp1[0] : (tuple<tensor<i64>>) -> tensor<i64>
    return %result0, %result1 : tensor<2xf64>, tensor<i64>
  }
}
