// A greedy decode loop with a KV cache, as jax.jit prints a lax.while_loop
// over 8 steps: each step projects the state to logits, takes their argmax
// (a reduce of two inputs), embeds the token (one-hot times the embedding),
// and writes the new state into the cache and the token into the output
// with dynamic_update_slice at the step. The batch is sharded on "data".
module @jit_greedy_decode attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<4x8xi32> {jax.result_info = "[0]"}, tensor<4x8x16xf32> {jax.result_info = "[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<4x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<4x8xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %arg0, %iterArg_2 = %cst, %iterArg_3 = %c) : tensor<i32>, tensor<4x16xf32>, tensor<4x8x16xf32>, tensor<4x8xi32>
     cond {
      %c_4 = stablehlo.constant dense<8> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_4,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.dot_general %iterArg_1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
      %2 = stablehlo.iota dim = 1 : tensor<4x32xi32>
      %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %c_5 = stablehlo.constant dense<0> : tensor<i32>
      %3:2 = stablehlo.reduce(%1 init: %cst_4), (%2 init: %c_5) across dimensions = [1] : (tensor<4x32xf32>, tensor<4x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
       reducer(%arg3: tensor<f32>, %arg5: tensor<f32>) (%arg4: tensor<i32>, %arg6: tensor<i32>)  {
        %17 = stablehlo.compare  GT, %arg3, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %18 = stablehlo.compare  NE, %arg3, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %19 = stablehlo.or %17, %18 : tensor<i1>
        %20 = stablehlo.compare  EQ, %arg3, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %21 = stablehlo.compare  LT, %arg4, %arg6,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %22 = stablehlo.and %20, %21 : tensor<i1>
        %23 = stablehlo.or %19, %22 : tensor<i1>
        %24 = stablehlo.select %19, %arg3, %arg5 : tensor<i1>, tensor<f32>
        %25 = stablehlo.select %23, %arg4, %arg6 : tensor<i1>, tensor<i32>
        stablehlo.return %24, %25 : tensor<f32>, tensor<i32>
      }
      %4 = stablehlo.iota dim = 1 : tensor<4x32xi32>
      %5 = stablehlo.broadcast_in_dim %3#1, dims = [0] : (tensor<4xi32>) -> tensor<4x32xi32>
      %6 = stablehlo.compare  EQ, %4, %5,  SIGNED : (tensor<4x32xi32>, tensor<4x32xi32>) -> tensor<4x32xi1>
      %7 = stablehlo.convert %6 : (tensor<4x32xi1>) -> tensor<4x32xf32>
      %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
      %9 = stablehlo.add %8, %iterArg_1 : tensor<4x16xf32>
      %10 = stablehlo.tanh %9 : tensor<4x16xf32>
      %11 = stablehlo.reshape %10 : (tensor<4x16xf32>) -> tensor<4x1x16xf32>
      %c_6 = stablehlo.constant dense<0> : tensor<i32>
      %12 = stablehlo.dynamic_update_slice %iterArg_2, %11, %c_6, %iterArg, %c_6 : (tensor<4x8x16xf32>, tensor<4x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x16xf32>
      %13 = stablehlo.reshape %3#1 : (tensor<4xi32>) -> tensor<4x1xi32>
      %14 = stablehlo.dynamic_update_slice %iterArg_3, %13, %c_6, %iterArg : (tensor<4x8xi32>, tensor<4x1xi32>, tensor<i32>, tensor<i32>) -> tensor<4x8xi32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg, %c_7 : tensor<i32>
      stablehlo.return %15, %10, %12, %14 : tensor<i32>, tensor<4x16xf32>, tensor<4x8x16xf32>, tensor<4x8xi32>
    }
    return %0#3, %0#2 : tensor<4x8xi32>, tensor<4x8x16xf32>
  }
}
