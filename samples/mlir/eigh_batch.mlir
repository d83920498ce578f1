// jnp.linalg.eigh of a batch of symmetric matrices as
// jax.jit(jnp.linalg.eigh).lower(a).as_text() prints it on CPU, the batch
// split over 2 devices: LAPACK's lapack_ssyevd_ffi (its lower triangle
// read, the upper never), then JAX's check of info (a matrix not converged
// gives NaNs). Read as Jacobi sweeps (compiler/mlir/EighDecomposition.cpp,
// docs/mlir.md): the eigenvalues ascending, the eigenvectors as columns.
module @jit_eigh attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2]>
  func.func public @main(%arg0: tensor<4x5x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}) -> (tensor<4x5x5xf32> {jax.result_info = "[0]"}, tensor<4x5xf32> {jax.result_info = "[1]"}) {
    %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%arg0) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<4x5x5xf32>) -> (tensor<4x5x5xf32>, tensor<4x5xf32>, tensor<4xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.compare  EQ, %0#2, %1,  SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<4xi1>) -> tensor<4x1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5x5xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x1x1xi1>) -> tensor<4x5x5xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<4x5x5xi1>, tensor<4x5x5xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<4xi1>) -> tensor<4x1xi1>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x5xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<4x5xi1>, tensor<4x5xf32>
    return %6, %10 : tensor<4x5x5xf32>, tensor<4x5xf32>
  }
}
