// One top-k sampling step of a language model's decoder, as
// jax.jit(sample_step).lower(h, w_out, u).as_text() prints it, with the
// output projection's vocabulary sharded on "model" and the batch on "data":
//
//   def sample_step(h, w_out, u):
//     logits = (h @ w_out) / 0.8                      # temperature
//     greedy = jnp.argmax(logits, axis=-1)
//     vals, idx = jax.lax.top_k(logits, 16)
//     g = -jnp.log(-jnp.log(u))                       # Gumbel noise
//     choice = jnp.argmax(vals + g, axis=-1)
//     token = jnp.take_along_axis(idx, choice[:, None], axis=-1)[:, 0]
//     return token, greedy
//
// u holds uniform samples in (0, 1) (jax.random.uniform's, passed in).
module @jit_sample_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8xi32> {jax.result_info = "[0]"}, tensor<8xi32> {jax.result_info = "[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
    %cst = stablehlo.constant dense<8.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %2 = stablehlo.divide %0, %1 : tensor<8x256xf32>
    %3 = stablehlo.iota dim = 1 : tensor<8x256xi32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:2 = stablehlo.reduce(%2 init: %cst_0), (%3 init: %c) across dimensions = [1] : (tensor<8x256xf32>, tensor<8x256xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg3: tensor<f32>, %arg5: tensor<f32>) (%arg4: tensor<i32>, %arg6: tensor<i32>)  {
      %27 = stablehlo.compare  GT, %arg3, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %28 = stablehlo.compare  NE, %arg3, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %29 = stablehlo.or %27, %28 : tensor<i1>
      %30 = stablehlo.compare  EQ, %arg3, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %31 = stablehlo.compare  LT, %arg4, %arg6,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %32 = stablehlo.and %30, %31 : tensor<i1>
      %33 = stablehlo.or %29, %32 : tensor<i1>
      %34 = stablehlo.select %29, %arg3, %arg5 : tensor<i1>, tensor<f32>
      %35 = stablehlo.select %33, %arg4, %arg6 : tensor<i1>, tensor<i32>
      stablehlo.return %34, %35 : tensor<f32>, tensor<i32>
    }
    %values, %indices = chlo.top_k(%2, k = 16) : tensor<8x256xf32> -> (tensor<8x16xf32>, tensor<8x16xi32>)
    %5 = stablehlo.log %arg2 : tensor<8x16xf32>
    %6 = stablehlo.negate %5 : tensor<8x16xf32>
    %7 = stablehlo.log %6 : tensor<8x16xf32>
    %8 = stablehlo.negate %7 : tensor<8x16xf32>
    %9 = stablehlo.add %values, %8 : tensor<8x16xf32>
    %10 = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %11:2 = stablehlo.reduce(%9 init: %cst_1), (%10 init: %c_2) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg3: tensor<f32>, %arg5: tensor<f32>) (%arg4: tensor<i32>, %arg6: tensor<i32>)  {
      %27 = stablehlo.compare  GT, %arg3, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %28 = stablehlo.compare  NE, %arg3, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %29 = stablehlo.or %27, %28 : tensor<i1>
      %30 = stablehlo.compare  EQ, %arg3, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %31 = stablehlo.compare  LT, %arg4, %arg6,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %32 = stablehlo.and %30, %31 : tensor<i1>
      %33 = stablehlo.or %29, %32 : tensor<i1>
      %34 = stablehlo.select %29, %arg3, %arg5 : tensor<i1>, tensor<f32>
      %35 = stablehlo.select %33, %arg4, %arg6 : tensor<i1>, tensor<i32>
      stablehlo.return %34, %35 : tensor<f32>, tensor<i32>
    }
    %12 = stablehlo.broadcast_in_dim %11#1, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %14 = stablehlo.compare  LT, %12, %13,  SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %c_4 = stablehlo.constant dense<16> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %16 = stablehlo.add %12, %15 : tensor<8x1xi32>
    %17 = stablehlo.select %14, %16, %12 : tensor<8x1xi1>, tensor<8x1xi32>
    %18 = stablehlo.reshape %17 : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %19 = "stablehlo.gather"(%indices, %18) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xi32>, tensor<8x1x1xi32>) -> tensor<8x1xi32>
    %20 = stablehlo.slice %19 [0:8, 0:1] : (tensor<8x1xi32>) -> tensor<8x1xi32>
    %21 = stablehlo.reshape %20 : (tensor<8x1xi32>) -> tensor<8xi32>
    return %21, %4#1 : tensor<8xi32>, tensor<8xi32>
  }
}
