module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%input: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xi32>, tensor<i32>) {
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 {
  ^bb0(%scan_arg0: tensor<i32>, %scan_arg1: tensor<i32>):
    %1 = stablehlo.add %scan_arg0, %scan_arg1 : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
    return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
  }
}
