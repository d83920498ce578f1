sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 2, rhs_component_count = 2, num_primitive_operations = 2, allow_imprecise_accumulation = false> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
