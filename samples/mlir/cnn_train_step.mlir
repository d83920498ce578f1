// One SGD step of a small CNN, as jax.jit(train_step).lower(...).as_text()
// prints it, batch on "data" and the conv's output channels on "model":
//
//   def loss_fn(w1, w2, x, labels):
//     z = lax.conv_general_dilated(x, w1, (1, 1), "SAME",
//                                  dimension_numbers=("NHWC", "HWIO", "NHWC"))
//     a = jnp.maximum(z, 0.0)
//     p = lax.reduce_window(a, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
//     logits = p.reshape(8, 128) @ w2
//     logp = jax.nn.log_softmax(logits)
//     return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))
//
//   def train_step(w1, w2, x, labels):
//     loss, (g1, g2) = jax.value_and_grad(loss_fn, argnums=(0, 1))(w1, w2, x, labels)
//     return loss, w1 - 0.1 * g1, w2 - 0.1 * g2
//
// The gradients as JAX derives them: the max-pool's through
// select_and_scatter, the conv's as a convolution of x with the output's
// gradient (batch and feature roles swapped), take_along_axis's as a scatter
// add, jnp.maximum's as a select of 1 (0.5 at ties) where the input won.
module @jit_train_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<3x3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"model"}]>}, %arg1: tensor<128x16xf32>, %arg2: tensor<8x8x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}, %arg3: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}) -> (tensor<f32> {jax.result_info = "[0]"}, tensor<3x3x4x8xf32> {jax.result_info = "[1]"}, tensor<128x16xf32> {jax.result_info = "[2]"}) {
    %0 = stablehlo.convolution(%arg2, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<8x8x8x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = "stablehlo.reduce_window"(%2, %cst_0) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %71 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      stablehlo.return %71 : tensor<f32>
    }) : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8x4x4x8xf32>
    %4 = stablehlo.reshape %3 : (tensor<8x4x4x8xf32>) -> tensor<8x128xf32>
    %5 = stablehlo.dot_general %4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x16xf32>) -> tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %9 = stablehlo.subtract %5, %8 : tensor<8x16xf32>
    %10 = stablehlo.exponential %9 : tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %13 = stablehlo.log %12 : tensor<8x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %15 = stablehlo.subtract %9, %14 : tensor<8x16xf32>
    %16 = stablehlo.broadcast_in_dim %arg3, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %18 = stablehlo.compare  LT, %16, %17,  SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %c_3 = stablehlo.constant dense<16> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %20 = stablehlo.add %16, %19 : tensor<8x1xi32>
    %21 = stablehlo.select %18, %20, %16 : tensor<8x1xi1>, tensor<8x1xi32>
    %22 = stablehlo.reshape %21 : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %23 = "stablehlo.gather"(%15, %22) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<8x1x1xi32>) -> tensor<8x1xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %25 = stablehlo.divide %24, %cst_5 : tensor<f32>
    %26 = stablehlo.negate %25 : tensor<f32>
    %cst_6 = stablehlo.constant dense<-1.250000e-01> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %29 = "stablehlo.scatter"(%28, %22, %27) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %71 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %71 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x16xf32>
    %30 = stablehlo.negate %29 : tensor<8x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %32 = stablehlo.reshape %31 : (tensor<8xf32>) -> tensor<8x1xf32>
    %33 = stablehlo.divide %32, %12 : tensor<8x1xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
    %36 = stablehlo.multiply %35, %10 : tensor<8x16xf32>
    %37 = stablehlo.add %29, %36 : tensor<8x16xf32>
    %38 = stablehlo.dot_general %37, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<128x16xf32>) -> tensor<8x128xf32>
    %39 = stablehlo.dot_general %4, %37, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<8x16xf32>) -> tensor<128x16xf32>
    %40 = stablehlo.reshape %38 : (tensor<8x128xf32>) -> tensor<8x4x4x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = "stablehlo.select_and_scatter"(%2, %40, %cst_10) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %71 = stablehlo.compare  GE, %arg4, %arg5,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %71 : tensor<i1>
    }, {
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %71 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %71 : tensor<f32>
    }) : (tensor<8x8x8x8xf32>, tensor<8x4x4x8xf32>, tensor<f32>) -> tensor<8x8x8x8xf32>
    %42 = stablehlo.compare  EQ, %0, %2,  FLOAT : (tensor<8x8x8x8xf32>, tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xi1>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %45 = stablehlo.select %42, %43, %44 : tensor<8x8x8x8xi1>, tensor<8x8x8x8xf32>
    %46 = stablehlo.compare  EQ, %1, %2,  FLOAT : (tensor<8x8x8x8xf32>, tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xi1>
    %cst_13 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %49 = stablehlo.select %46, %47, %48 : tensor<8x8x8x8xi1>, tensor<8x8x8x8xf32>
    %50 = stablehlo.divide %45, %49 : tensor<8x8x8x8xf32>
    %51 = stablehlo.multiply %41, %50 : tensor<8x8x8x8xf32>
    %52 = stablehlo.convolution(%arg2, %51) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x4xf32>, tensor<8x8x8x8xf32>) -> tensor<3x3x4x8xf32>
    %cst_15 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<3x3x4x8xf32>
    %54 = stablehlo.multiply %53, %52 : tensor<3x3x4x8xf32>
    %55 = stablehlo.subtract %arg0, %54 : tensor<3x3x4x8xf32>
    %cst_16 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<128x16xf32>
    %57 = stablehlo.multiply %56, %39 : tensor<128x16xf32>
    %58 = stablehlo.subtract %arg1, %57 : tensor<128x16xf32>
    return %26, %55, %58 : tensor<f32>, tensor<3x3x4x8xf32>, tensor<128x16xf32>
  }
}
