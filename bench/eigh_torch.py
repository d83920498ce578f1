"""LAPACK's symmetric eigendecomposition as JAX prints it on CPU
(lapack_ssyevd_ffi, jnp.linalg.eigh), run by shardgen on one device (cyclic
Jacobi sweeps, compiler/mlir/EighDecomposition.cpp), against PyTorch's
torch.linalg.eigh on one thread (LAPACK's syevd underneath), n x n f32,
best of N calls each.

Usage: python3 bench/eigh_torch.py build/shardgen [N] [n ...]
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
    print("| n | eigh: shardgen | torch.linalg.eigh | ratio |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for n in sizes:
            a = rng.standard_normal((n, n)).astype(np.float32)
            a = (a + a.T) / 2
            ours = shardgen_ms(shardgen, module("lapack_ssyevd_ffi", n,
                                                [f"tensor<{n}xf32>", "tensor<i32>"],
                                                "{mode = 86 : ui8, uplo = 76 : ui8}"),
                               a, runs, work)
            ta = torch.from_numpy(a)
            theirs = best_ms(lambda: torch.linalg.eigh(ta), runs)
            print(f"| {n} | {ours:.2f} ms | {theirs:.3f} ms | {ours / theirs:.0f}x |")


if __name__ == "__main__":
    main()
