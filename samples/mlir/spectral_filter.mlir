// Spectral filtering as jax.jit(f).lower(x, w, z).as_text() prints it for
// f = lambda x, w, z: (jnp.fft.irfft(jnp.fft.rfft(x) * w, n=16),
//                      jnp.fft.ifftn(jnp.fft.fftn(z, axes=(1, 2)) * 2, axes=(1, 2))):
// a real signal's spectrum (RFFT: 9 bins of 16 samples) scaled per bin and
// transformed back (IRFFT), and the 2-D transform of complex images of
// 12x5 (lengths no power of two: Bluestein's algorithm) and its inverse.
// The batch dims stay sharded (each device transforms its rows); the
// transform's dims need replication, so z's sharded dim 1 is gathered first.
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}]>}, %arg1: tensor<9xcomplex<f32>>, %arg2: tensor<4x12x5xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "[0]"}, tensor<4x12x5xcomplex<f32>> {jax.result_info = "[1]"}) {
    %0 = stablehlo.fft %arg0, type =  RFFT, length = [16] : (tensor<8x16xf32>) -> tensor<8x9xcomplex<f32>>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<9xcomplex<f32>>) -> tensor<8x9xcomplex<f32>>
    %2 = stablehlo.multiply %0, %1 : tensor<8x9xcomplex<f32>>
    %3 = stablehlo.fft %2, type =  IRFFT, length = [16] : (tensor<8x9xcomplex<f32>>) -> tensor<8x16xf32>
    %4 = stablehlo.fft %arg2, type =  FFT, length = [12, 5] : (tensor<4x12x5xcomplex<f32>>) -> tensor<4x12x5xcomplex<f32>>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<4x12x5xcomplex<f32>>
    %6 = stablehlo.multiply %4, %5 : tensor<4x12x5xcomplex<f32>>
    %7 = stablehlo.fft %6, type =  IFFT, length = [12, 5] : (tensor<4x12x5xcomplex<f32>>) -> tensor<4x12x5xcomplex<f32>>
    return %3, %7 : tensor<8x16xf32>, tensor<4x12x5xcomplex<f32>>
  }
}
