// argmax over a vocabulary sharded on "model", as jax.jit(lambda h, w:
// jnp.argmax(h @ w, axis=1)).lower(...).as_text() prints it (with the max
// logit as a second result): a reduce of two inputs whose body compares.
module @jit_argmax attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8xi32> {jax.result_info = "[0]"}, tensor<8xf32> {jax.result_info = "[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.iota dim = 1 : tensor<8x32xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:2 = stablehlo.reduce(%0 init: %cst), (%1 init: %c) across dimensions = [1] : (tensor<8x32xf32>, tensor<8x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<i32>, %arg5: tensor<i32>)  {
      %3 = stablehlo.compare  GT, %arg2, %arg4,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.compare  NE, %arg2, %arg2,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.or %3, %4 : tensor<i1>
      %6 = stablehlo.compare  EQ, %arg2, %arg4,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %7 = stablehlo.compare  LT, %arg3, %arg5,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %8 = stablehlo.and %6, %7 : tensor<i1>
      %9 = stablehlo.or %5, %8 : tensor<i1>
      %10 = stablehlo.select %5, %arg2, %arg4 : tensor<i1>, tensor<f32>
      %11 = stablehlo.select %9, %arg3, %arg5 : tensor<i1>, tensor<i32>
      stablehlo.return %10, %11 : tensor<f32>, tensor<i32>
    }
    return %2#1, %2#0 : tensor<8xi32>, tensor<8xf32>
  }
}
