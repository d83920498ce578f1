module attributes {foo.bar = 1 : i32} {
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
}
