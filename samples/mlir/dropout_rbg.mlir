// Dropout with the "rbg" PRNG, as jax.jit(f).lower(key, x).as_text() prints
// it with jax_default_prng_impl="rbg" and f = lambda key, x: jnp.where(
// jax.random.bernoulli(key, 0.9, x.shape), x / 0.9, 0): the key's four
// words become the two-word state of stablehlo.rng_bit_generator, whose
// bits make uniform floats in [0, 1) (23 mantissa bits under the exponent
// of 1.0, minus 1). The mask is sharded as x is: each device generates its
// own piece of the stream (DEFAULT is PHILOX, as on XLA's CPU backend).
module @jit_dropout attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<4xui32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {jax.result_info = ""}) {
    %0 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %1 = stablehlo.bitcast_convert %0 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %1, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
    %2 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %3 = stablehlo.reshape %2 : (tensor<2x2xui32>) -> tensor<4xui32>
    %c = stablehlo.constant dense<9> : tensor<ui32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %5 = stablehlo.shift_right_logical %output, %4 : tensor<8x16xui32>
    %c_0 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %7 = stablehlo.or %5, %6 : tensor<8x16xui32>
    %8 = stablehlo.bitcast_convert %7 : (tensor<8x16xui32>) -> tensor<8x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %10 = stablehlo.subtract %8, %9 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %12 = stablehlo.maximum %11, %10 : tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %14 = stablehlo.compare  LT, %12, %13,  FLOAT : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %15 = stablehlo.divide %arg1, %13 : tensor<8x16xf32>
    %16 = stablehlo.select %14, %15, %11 : tensor<8x16xi1>, tensor<8x16xf32>
    return %16 : tensor<8x16xf32>
  }
}
