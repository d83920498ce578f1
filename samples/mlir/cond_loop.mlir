// lax.fori_loop(0, 4, body, x) whose body is a lax.cond per step (JAX lowers
// it to a case on the converted predicate): even steps scale the sharded x,
// odd steps add its row sums broadcast back, as jax.jit prints it.
module @jit_cond_loop attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x4xf32>
     cond {
      %c_1 = stablehlo.constant dense<4> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.remainder %iterArg, %c_1 : tensor<i32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %2 = stablehlo.compare  EQ, %1, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = stablehlo.convert %2 : (tensor<i1>) -> tensor<i32>
      %4 = "stablehlo.case"(%3) ({
        %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
        %6 = stablehlo.reduce(%iterArg_0 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
        %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
        %8 = stablehlo.add %iterArg_0, %7 : tensor<8x4xf32>
        stablehlo.return %8 : tensor<8x4xf32>
      }, {
        %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
        %7 = stablehlo.multiply %iterArg_0, %6 : tensor<8x4xf32>
        stablehlo.return %7 : tensor<8x4xf32>
      }) : (tensor<i32>) -> tensor<8x4xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      stablehlo.return %5, %4 : tensor<i32>, tensor<8x4xf32>
    }
    return %0#1 : tensor<8x4xf32>
  }
}
