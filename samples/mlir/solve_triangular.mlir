// A batch of lower-triangular solves, as jax.jit(f).lower(a, b).as_text()
// prints jax.scipy.linalg.solve_triangular(a, b, lower=True) under vmap,
// the batch split over 2 devices: a substitution per batch, each device
// solving its own half (docs/mlir.md).
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2]>
  func.func public @main(%arg0: tensor<4x6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, %arg1: tensor<4x6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}) -> (tensor<4x6x3xf32> {jax.result_info = ""}) {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x6x6xf32>, tensor<4x6x3xf32>) -> tensor<4x6x3xf32>
    return %0 : tensor<4x6x3xf32>
  }
}
