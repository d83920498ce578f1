// samples/mlir/scan_mlp.mlir unrolled (bench_codegen_loop's baseline): the
// three layers written out, each taking its weights with a static slice of
// the stacked ones, then dot_general and tanh as the scan's body does. Same
// inputs, shardings and result.
module @jit_unrolled_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>}) -> (tensor<8x16xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = stablehlo.slice %arg1 [0:1, 0:16, 0:16] : (tensor<3x16x16xf32>) -> tensor<1x16x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %2 = stablehlo.dot_general %arg0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.tanh %2 : tensor<8x16xf32>
    %4 = stablehlo.slice %arg1 [1:2, 0:16, 0:16] : (tensor<3x16x16xf32>) -> tensor<1x16x16xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %6 = stablehlo.dot_general %3, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %7 = stablehlo.tanh %6 : tensor<8x16xf32>
    %8 = stablehlo.slice %arg1 [2:3, 0:16, 0:16] : (tensor<3x16x16xf32>) -> tensor<1x16x16xf32>
    %9 = stablehlo.reshape %8 : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %10 = stablehlo.dot_general %7, %9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %11 = stablehlo.tanh %10 : tensor<8x16xf32>
    return %11 : tensor<8x16xf32>
  }
}
