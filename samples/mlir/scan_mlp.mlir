// An MLP whose three layers are a lax.scan over stacked weights, as
// jax.jit(f).lower(x, ws).as_text() prints it (a while carrying the step,
// the activations and the weights; each step takes its layer with a
// dynamic_slice). The batch is sharded on x, the layers' outputs on y.
module @jit_scan_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>}) -> (tensor<8x16xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<3x16x16xf32>
     cond {
      %c_2 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_3 = stablehlo.constant dense<3> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %3 = stablehlo.select %1, %2, %iterArg : tensor<i1>, tensor<i32>
      %4 = stablehlo.dynamic_slice %iterArg_1, %3, %c_2, %c_2, sizes = [1, 16, 16] : (tensor<3x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>
      %5 = stablehlo.reshape %4 : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
      %6 = stablehlo.dot_general %iterArg_0, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %7 = stablehlo.tanh %6 : tensor<8x16xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      stablehlo.return %8, %7, %iterArg_1 : tensor<i32>, tensor<8x16xf32>, tensor<3x16x16xf32>
    }
    return %0#1 : tensor<8x16xf32>
  }
}
