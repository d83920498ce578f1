// Batched dense linear algebra as jax.jit(f).lower(a, s, b).as_text()
// prints it on CPU, the batch split over 2 devices: jnp.linalg.det(a) from
// LAPACK's LU (lapack_sgetrf_ffi: the product of U's diagonal, negated for
// an odd number of row swaps), jax.scipy.linalg.cho_solve of the
// symmetric positive definite s s^T + 5 I from its Cholesky factor
// (lapack_spotrf_ffi) and two triangular solves, and the Q of
// jnp.linalg.qr(a) (lapack_sgeqrf_ffi, lapack_sorgqr_ffi) (docs/mlir.md).
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2]>
  func.func public @main(%arg0: tensor<4x5x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, %arg1: tensor<4x5x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, %arg2: tensor<4x5x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}) -> (tensor<4xf32> {jax.result_info = "[0]"}, tensor<4x5x2xf32> {jax.result_info = "[1]"}, tensor<4x5x5xf32> {jax.result_info = "[2]"}) {
    %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%arg0) {mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<4x5x5xf32>) -> (tensor<4x5x5xf32>, tensor<4x5xi32>, tensor<4xi32>)
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %2 = stablehlo.subtract %0#1, %1 : tensor<4x5xi32>
    %3 = stablehlo.iota dim = 1 : tensor<4x5xi32>
    %4 = stablehlo.compare  NE, %2, %3,  SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %5 = stablehlo.convert %4 : (tensor<4x5xi1>) -> tensor<4x5xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.reduce(%5 init: %c_0) applies stablehlo.add across dimensions = [1] : (tensor<4x5xi32>, tensor<i32>) -> tensor<4xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<4xi32>
    %7 = stablehlo.remainder %6, %c_1 : tensor<4xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<4xi32>
    %8 = stablehlo.compare  EQ, %7, %c_2,  SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+00> : tensor<4xf32>
    %9 = stablehlo.select %8, %cst, %cst_3 : tensor<4xi1>, tensor<4xf32>
    %10 = stablehlo.iota dim = 1 : tensor<4x5x5xi32>
    %11 = stablehlo.iota dim = 2 : tensor<4x5x5xi32>
    %12 = stablehlo.compare  EQ, %10, %11,  SIGNED : (tensor<4x5x5xi32>, tensor<4x5x5xi32>) -> tensor<4x5x5xi1>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<4x5x5xf32>
    %13 = stablehlo.select %12, %0#0, %cst_4 : tensor<4x5x5xi1>, tensor<4x5x5xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_5) applies stablehlo.multiply across dimensions = [1, 2] : (tensor<4x5x5xf32>, tensor<f32>) -> tensor<4xf32>
    %15 = stablehlo.multiply %9, %14 : tensor<4xf32>
    %16 = stablehlo.dot_general %arg1, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x5x5xf32>, tensor<4x5x5xf32>) -> tensor<4x5x5xf32>
    %cst_6 = stablehlo.constant dense<5.000000e+00> : tensor<4x5x5xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<4x5x5xf32>
    %17 = stablehlo.select %12, %cst_6, %cst_7 : tensor<4x5x5xi1>, tensor<4x5x5xf32>
    %18 = stablehlo.add %16, %17 : tensor<4x5x5xf32>
    %19:2 = stablehlo.custom_call @lapack_spotrf_ffi(%18) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<4x5x5xf32>) -> (tensor<4x5x5xf32>, tensor<4xi32>)
    %20 = stablehlo.compare  GE, %10, %11,  SIGNED : (tensor<4x5x5xi32>, tensor<4x5x5xi32>) -> tensor<4x5x5xi1>
    %21 = stablehlo.select %20, %19#0, %cst_7 : tensor<4x5x5xi1>, tensor<4x5x5xf32>
    %22 = "stablehlo.triangular_solve"(%21, %arg2) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x5x5xf32>, tensor<4x5x2xf32>) -> tensor<4x5x2xf32>
    %23 = "stablehlo.triangular_solve"(%21, %22) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<4x5x5xf32>, tensor<4x5x2xf32>) -> tensor<4x5x2xf32>
    %24:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<4x5x5xf32>) -> (tensor<4x5x5xf32>, tensor<4x5xf32>)
    %25 = stablehlo.custom_call @lapack_sorgqr_ffi(%24#0, %24#1) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<4x5x5xf32>, tensor<4x5xf32>) -> tensor<4x5x5xf32>
    return %15, %23, %25 : tensor<4xf32>, tensor<4x5x2xf32>, tensor<4x5x5xf32>
  }
}
