module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%rhs: tensor<3x5x7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %group_sizes: tensor<3xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<11x7xf32>) {
  %lhs = stablehlo.constant dense<
    [
      [ -0.0999976546, -0.0605386607, 0.126681596, 0.0375950411, 0.0598301813 ],
      [ -0.0343122408, -0.0858866125, 0.103659429, 0.103788935, 0.180407882 ],
      [ 0.0150506198, 0.055824928, 0.149289608, -0.0896283686, -0.0839615092 ],
      [ 0.0589100644, 0.101344816, -0.097690545, 0.0150246918, -0.0799473301 ],
      [ 0.0252457932, 0.106031813, 0.076692991, 0.179130971, 0.153850079 ],
      [ 0.0580786392, -0.0724105313, 0.0961757079, 0.0247998089, 0.110357188 ],
      [ 0.173096269, 0.128659427, -0.0212640986, -0.0857606456, 0.120824583 ],
      [ -0.00152973086, 0.0897915736, 0.126923144, 0.197311223, 0.00960160792 ],
      [ -0.0258883312, 0.194765091, 0.11679814, 0.126006752, 0.0954555795 ],
      [ -0.0781942382, 0.0894904211, 0.165412158, -0.0181870088, 0.0309234336 ],
      [ 0.129948437, 0.0433195308, -0.028667666, -0.0175279453, 0.00777949393 ]
    ]> : tensor<11x5xf32>
  %result = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [],
      rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0],
      rhs_group_dimensions = [0]
    >,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
    return %result : tensor<11x7xf32>
  }
}
