sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x2xi32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x2xi32>
  %2 = sdy.named_computation<"nc">(%1) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{?}, {?}]>] (%arg1: tensor<8x2xi32>) {
    %3 = stablehlo.abs %arg1 : tensor<8x2xi32>
    sdy.return %3 : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %2 : tensor<8x2xi32>
}
func.func private @foo(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x2xi32>
  %1 = stablehlo.subtract %0, %0 : tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}
