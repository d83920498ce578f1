// A rematerialized block (jax.checkpoint): the forward pass's inputs go
// through an optimization_barrier before the block is recomputed, as
// jax.jit(jax.grad(...)) prints it; each barrier result keeps its operand's
// sharding (a data-flow edge).
module @jit_remat_block attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<16x16xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8x16xf32>, tensor<16x16xf32>
    %2 = stablehlo.dot_general %1#0, %1#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.tanh %2 : tensor<8x16xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %6 = stablehlo.subtract %5, %4 : tensor<8x16xf32>
    %7 = stablehlo.multiply %6, %0 : tensor<8x16xf32>
    %8 = stablehlo.dot_general %1#0, %7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    return %8 : tensor<16x16xf32>
  }
}
