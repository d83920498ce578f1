// jnp.argsort of logits sharded on "model" and their lax.top_k, as
// jax.jit(lambda x: (jnp.argsort(x, axis=1), jax.lax.top_k(x, 5)))
// .lower(...).as_text() prints them: a sort of the values and an iota by a
// TOTALORDER comparison, and chlo.top_k.
module @jit_argsort_topk attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x32xi32> {jax.result_info = "[0]"}, tensor<8x5xf32> {jax.result_info = "[1][0]"}, tensor<8x5xi32> {jax.result_info = "[1][1]"}) {
    %0 = stablehlo.iota dim = 1 : tensor<8x32xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %2 = stablehlo.compare  LT, %arg1, %arg2,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<8x32xf32>, tensor<8x32xi32>) -> (tensor<8x32xf32>, tensor<8x32xi32>)
    %values, %indices = chlo.top_k(%arg0, k = 5) : tensor<8x32xf32> -> (tensor<8x5xf32>, tensor<8x5xi32>)
    return %1#1, %values, %indices : tensor<8x32xi32>, tensor<8x5xf32>, tensor<8x5xi32>
  }
}
