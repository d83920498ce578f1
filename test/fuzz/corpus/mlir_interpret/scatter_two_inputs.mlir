module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%best: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %where: tensor<4x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %rows: tensor<5x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %values: tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %ids: tensor<5x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>) {
    %0:2 = "stablehlo.scatter"(%best, %where, %rows, %values, %ids) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%v: tensor<f32>, %i: tensor<i32>, %u: tensor<f32>, %j: tensor<i32>):
      %keep = stablehlo.compare  GE, %v, %u,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %keep, %v, %u : tensor<i1>, tensor<f32>
      %k = stablehlo.select %keep, %i, %j : tensor<i1>, tensor<i32>
      stablehlo.return %m, %k : tensor<f32>, tensor<i32>
    }) : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<5x1xi32>, tensor<5x6xf32>, tensor<5x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
    return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xi32>
  }
}
