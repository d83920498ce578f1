"""LAPACK's LU, Cholesky and QR as JAX prints them on CPU (lapack_sgetrf_ffi,
lapack_spotrf_ffi, lapack_sgeqrf_ffi), run by shardgen on one device,
against PyTorch's torch.linalg.lu_factor, torch.linalg.cholesky and
torch.geqrf on one thread (LAPACK underneath), n x n f32, best of N calls
each.

Usage: python3 bench/linalg_torch.py build/shardgen [N] [n ...]
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch

from best_of import best_ms


def module(target, n, results, config):
    t = f"tensor<{n}x{n}xf32>"
    ret = ", ".join([t] + results)
    uses = ", ".join(f"%0#{i}" for i in range(len(results) + 1))
    return (f"func.func @main(%a: {t}) -> ({ret}) {{\n"
            f"  %0:{len(results) + 1} = stablehlo.custom_call @{target}(%a) "
            f"{{mhlo.backend_config = {config}}} : ({t}) -> ({ret})\n"
            f"  return {uses} : {ret}\n}}\n")


def shardgen_ms(shardgen, text, matrix, runs, work):
    graph = os.path.join(work, "graph.mlir")
    data = os.path.join(work, "a.npy")
    with open(graph, "w") as f:
        f.write(text)
    np.save(data, matrix)
    out = subprocess.run([shardgen, "run", graph, "--inputs", data, "--repeat", str(runs),
                          "-o", os.path.join(work, "out")],
                         capture_output=True, text=True, check=True)
    return float(re.search(r"run\s+min ([0-9.]+) ms", out.stdout + out.stderr).group(1))


def main():
    shardgen = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sizes = [int(n) for n in sys.argv[3:]] or [128, 256, 512]
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    print("| n | LU: shardgen | torch.linalg.lu_factor | ratio | Cholesky: shardgen | "
          "torch.linalg.cholesky | ratio | QR: shardgen | torch.geqrf | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for n in sizes:
            a = rng.standard_normal((n, n)).astype(np.float32)
            spd = (a @ a.T / n + np.eye(n)).astype(np.float32)
            lu = shardgen_ms(shardgen, module("lapack_sgetrf_ffi", n,
                                              [f"tensor<{n}xi32>", "tensor<i32>"], "{}"),
                             a, runs, work)
            chol = shardgen_ms(shardgen, module("lapack_spotrf_ffi", n, ["tensor<i32>"],
                                                "{uplo = 76 : ui8}"), spd, runs, work)
            qr = shardgen_ms(shardgen, module("lapack_sgeqrf_ffi", n, [f"tensor<{n}xf32>"], "{}"),
                             a, runs, work)
            ta, tspd = torch.from_numpy(a), torch.from_numpy(spd)
            torch_lu = best_ms(lambda: torch.linalg.lu_factor(ta), runs)
            torch_chol = best_ms(lambda: torch.linalg.cholesky(tspd), runs)
            torch_qr = best_ms(lambda: torch.geqrf(ta), runs)
            print(f"| {n} | {lu:.2f} ms | {torch_lu:.2f} ms | {lu / torch_lu:.1f}x | "
                  f"{chol:.2f} ms | {torch_chol:.2f} ms | {chol / torch_chol:.1f}x | "
                  f"{qr:.2f} ms | {torch_qr:.2f} ms | {qr / torch_qr:.1f}x |")


if __name__ == "__main__":
    main()
