// One multi-head self-attention block, batch on "data" and heads on "model",
// in the style jax.jit(...).lower(...).as_text() prints with Shardy: scalar
// constants broadcast, the reductions once in the short `applies` form and
// once with their region. The same program as samples/attention.json.
module @jit_attention attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<2x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg1: tensor<16x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg2: tensor<16x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<16x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg4: tensor<4x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}) -> (tensor<2x8x16xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %2 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16xf32>, tensor<16x4x4xf32>) -> tensor<2x8x4x4xf32>
    %3 = stablehlo.dot_general %0, %1, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) -> tensor<2x4x8x8xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<2x4x8x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
    %8 = stablehlo.subtract %5, %7 : tensor<2x4x8x8xf32>
    %9 = stablehlo.exponential %8 : tensor<2x4x8x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
     reducer(%arg5: tensor<f32>, %arg6: tensor<f32>)  {
      %16 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %16 : tensor<f32>
    }
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
    %12 = stablehlo.divide %9, %11 : tensor<2x4x8x8xf32>
    %13 = stablehlo.dot_general %12, %2, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x8x4x4xf32>) -> tensor<2x4x8x4xf32>
    %14 = stablehlo.dot_general %13, %arg4, contracting_dims = [1, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x4xf32>, tensor<4x4x16xf32>) -> tensor<2x8x16xf32>
    %15 = sdy.sharding_constraint %14 <@mesh, [{"data"}, {}, {}]> : tensor<2x8x16xf32>
    return %15 : tensor<2x8x16xf32>
  }
}
