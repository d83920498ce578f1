"""LAPACK's symmetric eigendecomposition and SVD as JAX prints them on CPU
(lapack_ssyevd_ffi: jnp.linalg.eigh; lapack_sgesdd_ffi: jnp.linalg.svd,
full_matrices=False), run by shardgen on one device (Jacobi sweeps:
compiler/mlir/EighDecomposition.cpp, SvdDecomposition.cpp), against
PyTorch's torch.linalg.eigh and torch.linalg.svd on one thread (LAPACK's
syevd and gesdd underneath), n x n f32, best of N calls each.

Usage: python3 bench/jacobi_torch.py build/shardgen [N] [n ...]
"""
import sys
import tempfile

import numpy as np
import torch

from best_of import best_ms
from linalg_torch import module, shardgen_ms


def main():
    shardgen = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sizes = [int(n) for n in sys.argv[3:]] or [8, 64, 256]
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    print("| n | eigh: shardgen | torch.linalg.eigh | ratio | svd: shardgen | torch.linalg.svd "
          "| ratio |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for n in sizes:
            a = rng.standard_normal((n, n)).astype(np.float32)
            symmetric = (a + a.T) / 2
            square, vector = f"tensor<{n}x{n}xf32>", f"tensor<{n}xf32>"
            eigh = shardgen_ms(shardgen, module("lapack_ssyevd_ffi", n, [vector, "tensor<i32>"],
                                                "{mode = 86 : ui8, uplo = 76 : ui8}"),
                               symmetric, runs, work)
            svd = shardgen_ms(shardgen, module("lapack_sgesdd_ffi", n,
                                               [vector, square, square, "tensor<i32>"],
                                               "{mode = 83 : ui8}"), a, runs, work)
            ts, ta = torch.from_numpy(symmetric), torch.from_numpy(a)
            torch_eigh = best_ms(lambda: torch.linalg.eigh(ts), runs)
            torch_svd = best_ms(lambda: torch.linalg.svd(ta, full_matrices=False), runs)
            print(f"| {n} | {eigh:.2f} ms | {torch_eigh:.3f} ms | {eigh / torch_eigh:.0f}x | "
                  f"{svd:.2f} ms | {torch_svd:.3f} ms | {svd / torch_svd:.0f}x |")


if __name__ == "__main__":
    main()
