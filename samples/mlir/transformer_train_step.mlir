// One SGD step of a one-layer decoder-only transformer, as
// jax.jit(train_step).lower(...).as_text() prints it with
// jax.config.update("jax_default_prng_impl", "rbg"): batch on "data", the
// vocabulary (the embedding table's rows, the output projection's columns)
// on "model".
//
//   def loss_fn(params, tok, tgt, key):
//     E, Wq, Wk, Wv, Wo, Wout = params
//     x = E[tok]                                        # [4, 8, 16]
//     q, k, v = x @ Wq, x @ Wk, x @ Wv
//     s = jnp.einsum("btd,bsd->bts", q, k) * 0.25
//     causal = lax.broadcasted_iota(jnp.int32, (8, 8), 0) >= lax.broadcasted_iota(jnp.int32, (8, 8), 1)
//     s = jnp.where(causal, s, -1e9)
//     p = jax.nn.softmax(s)
//     keep = jax.random.bernoulli(key, 0.9, p.shape)     # dropout
//     p = jnp.where(keep, p / 0.9, 0.0)
//     h = x + jnp.einsum("bts,bsd->btd", p, v) @ Wo
//     logp = jax.nn.log_softmax(h @ Wout)               # [4, 8, 32]
//     return -jnp.mean(jnp.take_along_axis(logp, tgt[..., None], axis=-1))
//
//   def train_step(params, tok, tgt, key):
//     loss, grads = jax.value_and_grad(loss_fn)(params, tok, tgt, key)
//     return loss, [w - 0.1 * g for w, g in zip(params, grads)]
//
// The embedding's gradient is a scatter add of the rows' gradients into
// zeros (gather's transpose), take_along_axis's a scatter add as well; the
// dropout mask comes from rng_bit_generator (DEFAULT: XLA's CPU Philox).
module @jit_train_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16x16xf32>, %arg5: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg6: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg7: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg8: tensor<4xui32>) -> (tensor<f32> {jax.result_info = "[0]"}, tensor<32x16xf32> {jax.result_info = "[1][0]"}, tensor<16x16xf32> {jax.result_info = "[1][1]"}, tensor<16x16xf32> {jax.result_info = "[1][2]"}, tensor<16x16xf32> {jax.result_info = "[1][3]"}, tensor<16x16xf32> {jax.result_info = "[1][4]"}, tensor<16x32xf32> {jax.result_info = "[1][5]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %1 = stablehlo.compare  LT, %arg6, %0,  SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %3 = stablehlo.add %arg6, %2 : tensor<4x8xi32>
    %4 = stablehlo.select %1, %3, %arg6 : tensor<4x8xi1>, tensor<4x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<32x16xf32>, tensor<4x8x1xi32>) -> tensor<4x8x16xf32>
    %7 = stablehlo.dot_general %6, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %8 = stablehlo.dot_general %6, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %9 = stablehlo.dot_general %6, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %10 = stablehlo.dot_general %7, %8, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
    %cst = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<4x8x8xf32>
    %13 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %14 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %15 = stablehlo.compare  GE, %13, %14,  SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [1, 2] : (tensor<8x8xi1>) -> tensor<4x8x8xi1>
    %cst_1 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %18 = stablehlo.select %16, %12, %17 : tensor<4x8x8xi1>, tensor<4x8x8xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_2) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %22 = stablehlo.subtract %18, %21 : tensor<4x8x8xf32>
    %23 = stablehlo.exponential %22 : tensor<4x8x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %27 = stablehlo.divide %23, %26 : tensor<4x8x8xf32>
    %28 = stablehlo.reshape %arg8 : (tensor<4xui32>) -> tensor<2x2xui32>
    %29 = stablehlo.bitcast_convert %28 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %29, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8x8xui32>)
    %c_4 = stablehlo.constant dense<9> : tensor<ui32>
    %30 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<ui32>) -> tensor<4x8x8xui32>
    %31 = stablehlo.shift_right_logical %output, %30 : tensor<4x8x8xui32>
    %c_5 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %32 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<ui32>) -> tensor<4x8x8xui32>
    %33 = stablehlo.or %31, %32 : tensor<4x8x8xui32>
    %34 = stablehlo.bitcast_convert %33 : (tensor<4x8x8xui32>) -> tensor<4x8x8xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %36 = stablehlo.subtract %34, %35 : tensor<4x8x8xf32>
    %cst_7 = stablehlo.constant dense<9.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %38 = stablehlo.compare  LT, %36, %37,  FLOAT : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xi1>
    %cst_8 = stablehlo.constant dense<9.000000e-01> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %40 = stablehlo.divide %27, %39 : tensor<4x8x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %42 = stablehlo.select %38, %40, %41 : tensor<4x8x8xi1>, tensor<4x8x8xf32>
    %43 = stablehlo.dot_general %42, %9, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %44 = stablehlo.dot_general %43, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %45 = stablehlo.add %6, %44 : tensor<4x8x16xf32>
    %46 = stablehlo.dot_general %45, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
    %cst_10 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_10) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %50 = stablehlo.subtract %46, %49 : tensor<4x8x32xf32>
    %51 = stablehlo.exponential %50 : tensor<4x8x32xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %54 = stablehlo.log %53 : tensor<4x8x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %56 = stablehlo.subtract %50, %55 : tensor<4x8x32xf32>
    %57 = stablehlo.compare  LT, %arg7, %0,  SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %58 = stablehlo.add %arg7, %2 : tensor<4x8xi32>
    %59 = stablehlo.select %57, %58, %arg7 : tensor<4x8xi1>, tensor<4x8xi32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1x1xi32>
    %61 = "stablehlo.gather"(%56, %60) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x32xf32>, tensor<4x8x1x1xi32>) -> tensor<4x8x1xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_12) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %63 = stablehlo.divide %62, %cst_13 : tensor<f32>
    %64 = stablehlo.negate %63 : tensor<f32>
    %cst_14 = stablehlo.constant dense<-3.125000e-02> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %67 = "stablehlo.scatter"(%66, %60, %65) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %150 = stablehlo.add %arg9, %arg10 : tensor<f32>
      stablehlo.return %150 : tensor<f32>
    }) : (tensor<4x8x32xf32>, tensor<4x8x1x1xi32>, tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %68 = stablehlo.negate %67 : tensor<4x8x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %70 = stablehlo.reshape %69 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %71 = stablehlo.divide %70, %53 : tensor<4x8x1xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %74 = stablehlo.multiply %73, %51 : tensor<4x8x32xf32>
    %75 = stablehlo.add %67, %74 : tensor<4x8x32xf32>
    %76 = stablehlo.dot_general %75, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<16x32xf32>) -> tensor<4x8x16xf32>
    %77 = stablehlo.dot_general %45, %75, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x32xf32>) -> tensor<16x32xf32>
    %78 = stablehlo.dot_general %76, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %79 = stablehlo.dot_general %43, %76, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<16x16xf32>
    %80 = stablehlo.dot_general %78, %9, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
    %81 = stablehlo.dot_general %42, %78, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %82 = stablehlo.select %38, %80, %41 : tensor<4x8x8xi1>, tensor<4x8x8xf32>
    %83 = stablehlo.divide %82, %39 : tensor<4x8x8xf32>
    %84 = stablehlo.multiply %83, %27 : tensor<4x8x8xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.reduce(%84 init: %cst_18) applies stablehlo.add across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x8xf32>
    %87 = stablehlo.multiply %27, %86 : tensor<4x8x8xf32>
    %88 = stablehlo.subtract %84, %87 : tensor<4x8x8xf32>
    %89 = stablehlo.select %16, %88, %41 : tensor<4x8x8xi1>, tensor<4x8x8xf32>
    %90 = stablehlo.multiply %89, %11 : tensor<4x8x8xf32>
    %91 = stablehlo.dot_general %90, %8, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %92 = stablehlo.dot_general %90, %7, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %93 = stablehlo.dot_general %6, %91, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<16x16xf32>
    %94 = stablehlo.dot_general %6, %92, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<16x16xf32>
    %95 = stablehlo.dot_general %6, %81, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<16x16xf32>
    %96 = stablehlo.dot_general %91, %arg1, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %97 = stablehlo.dot_general %92, %arg2, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %98 = stablehlo.dot_general %81, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
    %99 = stablehlo.add %76, %96 : tensor<4x8x16xf32>
    %100 = stablehlo.add %99, %97 : tensor<4x8x16xf32>
    %101 = stablehlo.add %100, %98 : tensor<4x8x16xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %102 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %103 = "stablehlo.scatter"(%102, %5, %101) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %150 = stablehlo.add %arg9, %arg10 : tensor<f32>
      stablehlo.return %150 : tensor<f32>
    }) : (tensor<32x16xf32>, tensor<4x8x1xi32>, tensor<4x8x16xf32>) -> tensor<32x16xf32>
    %cst_20 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %105 = stablehlo.multiply %104, %103 : tensor<32x16xf32>
    %106 = stablehlo.subtract %arg0, %105 : tensor<32x16xf32>
    %107 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %108 = stablehlo.multiply %107, %93 : tensor<16x16xf32>
    %109 = stablehlo.subtract %arg1, %108 : tensor<16x16xf32>
    %110 = stablehlo.multiply %107, %94 : tensor<16x16xf32>
    %111 = stablehlo.subtract %arg2, %110 : tensor<16x16xf32>
    %112 = stablehlo.multiply %107, %95 : tensor<16x16xf32>
    %113 = stablehlo.subtract %arg3, %112 : tensor<16x16xf32>
    %114 = stablehlo.multiply %107, %79 : tensor<16x16xf32>
    %115 = stablehlo.subtract %arg4, %114 : tensor<16x16xf32>
    %116 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %117 = stablehlo.multiply %116, %77 : tensor<16x32xf32>
    %118 = stablehlo.subtract %arg5, %117 : tensor<16x32xf32>
    return %64, %106, %109, %111, %113, %115, %118 : tensor<f32>, tensor<32x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>
  }
}
