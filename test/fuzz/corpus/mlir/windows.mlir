module @jit_cnn attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<4x8x8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {"model"}]>}, %arg1: tensor<3x3x6x8xf32>, %arg2: tensor<4x4x4x8xf32>, %arg3: tensor<4x10xi32>) -> (tensor<4x4x4x8xf32>, tensor<4x8x8x8xf32>, tensor<4x10xi32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x6xf32>, tensor<3x3x6x8xf32>) -> tensor<4x8x8x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = "stablehlo.reduce_window"(%0, %cst) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %5 = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<4x4x4x8xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = "stablehlo.select_and_scatter"(%0, %arg2, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %5 = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %5 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<4x8x8x8xf32>, tensor<4x4x4x8xf32>, tensor<f32>) -> tensor<4x8x8x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = "stablehlo.reduce_window"(%arg3, %c) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [9, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 10>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %5 = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %5 : tensor<i32>
    }) : (tensor<4x10xi32>, tensor<i32>) -> tensor<4x10xi32>
    return %1, %2, %3 : tensor<4x4x4x8xf32>, tensor<4x8x8x8xf32>, tensor<4x10xi32>
  }
}
