// A shard_map step over both axes of a 2x2 mesh, as
// jax.jit(f).lower(a).as_text() prints it with Shardy:
//   i = lax.axis_index("x")                  # partition_id / 2 % 2
//   b = a * (i + 1)
//   c = lax.ppermute(b, "x", [(0, 1), (1, 0)])
//   return lax.psum(c, "y") + b
// lax.axis_index inside a shard_map over every mesh axis is lowered to
// stablehlo.partition_id divided by the axis's stride, modulo its size.
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x2xf32>) {
      %1 = stablehlo.partition_id : tensor<ui32>
      %c = stablehlo.constant dense<2> : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %c_0 = stablehlo.constant dense<2> : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %4, %c_1 : tensor<i32>
      %6 = stablehlo.convert %5 : (tensor<i32>) -> tensor<f32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
      %8 = stablehlo.multiply %arg1, %7 : tensor<4x2xf32>
      %9 = "stablehlo.collective_permute"(%8) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<4x2xf32>) -> tensor<4x2xf32>
      %10 = "stablehlo.all_reduce"(%9) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %12 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %12 : tensor<f32>
      }) : (tensor<4x2xf32>) -> tensor<4x2xf32>
      %11 = stablehlo.add %10, %8 : tensor<4x2xf32>
      sdy.return %11 : tensor<4x2xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
