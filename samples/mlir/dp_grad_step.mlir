// One data-parallel SGD step of linear regression written with shard_map, as
// jax.jit(step).lower(x, y, w).as_text() prints it with Shardy: each device
// computes the gradient of its batch shard, a psum (stablehlo.all_reduce over
// all four devices of "data") sums them, every device applies the update.
// The same program as samples/dp_grad_step.json.
module @jit_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4]>
  func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg2: tensor<8x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x1xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{}, {}], replicated={"data"}>] out_shardings=[<@mesh, [{}, {}], replicated={"data"}>] manual_axes={"data"} (%arg3: tensor<4x8xf32>, %arg4: tensor<4x1xf32>, %arg5: tensor<8x1xf32>) {
      %1 = stablehlo.dot_general %arg3, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x1xf32>) -> tensor<4x1xf32>
      %2 = stablehlo.subtract %1, %arg4 : tensor<4x1xf32>
      %3 = stablehlo.dot_general %arg3, %2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<8x1xf32>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %8 : tensor<f32>
      }) : (tensor<8x1xf32>) -> tensor<8x1xf32>
      %cst = stablehlo.constant dense<6.250000e-02> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
      %6 = stablehlo.multiply %4, %5 : tensor<8x1xf32>
      %7 = stablehlo.subtract %arg5, %6 : tensor<8x1xf32>
      sdy.return %7 : tensor<8x1xf32>
    } : (tensor<16x8xf32>, tensor<16x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    return %0 : tensor<8x1xf32>
  }
}
