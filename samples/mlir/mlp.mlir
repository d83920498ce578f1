// A two-layer MLP with data and model parallelism (Megatron style), as
// jax.jit(mlp, in_shardings=..., out_shardings=...).lower(x, w1, b1, w2, b2).as_text()
// prints it with Shardy: the batch on "data", w1 column- and w2 row-sharded on
// "model". The same program as samples/mlp.json.
#loc1 = loc("x")
#loc2 = loc("w1")
#loc3 = loc("b1")
#loc4 = loc("w2")
#loc5 = loc("b2")
module @jit_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>} loc("x"), %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>} loc("w1"), %arg2: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>} loc("b1"), %arg3: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>} loc("w2"), %arg4: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>} loc("b2")) -> (tensor<8x16xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc(#loc11)
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32> loc(#loc12)
    %2 = stablehlo.add %0, %1 : tensor<8x32xf32> loc(#loc12)
    %3 = call @activation(%2) : (tensor<8x32xf32>) -> tensor<8x32xf32> loc(#loc13)
    %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32> loc(#loc14)
    %5 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32> loc(#loc15)
    %6 = stablehlo.add %4, %5 : tensor<8x16xf32> loc(#loc15)
    return %6 : tensor<8x16xf32> loc(#loc)
  } loc(#loc)
  func.func private @activation(%arg0: tensor<8x32xf32> loc("jit(mlp)/jit(main)/jit(activation)"(#loc13))) -> tensor<8x32xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8x32xf32> loc(#loc16)
    return %0 : tensor<8x32xf32> loc(#loc13)
  } loc(#loc13)
} loc(#loc)
#loc = loc(unknown)
#loc6 = loc("mlp.py":9:0)
#loc7 = loc("mlp.py":10:0)
#loc8 = loc("mlp.py":11:0)
#loc9 = loc("mlp.py":12:0)
#loc10 = loc("mlp.py":6:0)
#loc11 = loc("jit(mlp)/jit(main)/dot_general"(#loc6))
#loc12 = loc("jit(mlp)/jit(main)/add"(#loc6))
#loc13 = loc("jit(mlp)/jit(main)/activation"(#loc7))
#loc14 = loc("jit(mlp)/jit(main)/dot_general"(#loc8))
#loc15 = loc("jit(mlp)/jit(main)/add"(#loc9))
#loc16 = loc("jit(mlp)/jit(main)/jit(activation)/tanh"(#loc10))
