#!/usr/bin/python3
"""Whole programs through shardgen against PyTorch on CPU, same run.

For each program (MLP, attention, transformer block; models.py) at a few
GFLOP: shardgen `run --repeat N` on 1 and 2 devices (one graph, the mesh set
with --mesh; per-call time includes scatter and gather of the global
tensors), and PyTorch at 1 and 2 threads on the same inputs. Prints times
and the ratios the issue asks for. Also checks that shardgen's and PyTorch's
outputs agree (a bench of wrong numbers measures nothing).

  bench/whole_program/run.py --shardgen build/shardgen [--repeat 20] [--small]
      [--dtype bf16] [--torch-repeat N] [program ...]

--dtype bf16 builds every tensor of the graphs as bf16 and runs PyTorch in
bfloat16 on the same (rounded) inputs; .npy files then hold the bf16 bit
patterns ('<u2', as shardgen reads and writes them). The programs are mlp,
attention and transformer by default; matmul (1024^3, the weight
column-sharded) is there too.

PyTorch (Debian's python3-torch) is a baseline only, never a shardgen
dependency. It runs with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from
its environment: this machine sets them for old OpenBLAS builds, and they
slow a current one. shardgen runs with the environment as it is.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

CONFIGS = {
    "matmul": {"m": 1024, "k": 1024, "n": 1024},
    "mlp": {"batch": 256, "embed": 1024, "hidden": 4096},
    "attention": {"batch": 2, "seq": 256, "embed": 1024, "heads": 16},
    "transformer": {"batch": 2, "seq": 256, "embed": 1024, "heads": 16, "hidden": 4096},
}
SMALL = {  # --small: seconds instead of minutes, to try the script
    "matmul": {"m": 64, "k": 128, "n": 96},
    "mlp": {"batch": 32, "embed": 128, "hidden": 512},
    "attention": {"batch": 2, "seq": 32, "embed": 128, "heads": 4},
    "transformer": {"batch": 2, "seq": 32, "embed": 128, "heads": 4, "hidden": 512},
}

TORCH_WORKER = r'''
import json, sys, time, numpy as np, torch
sys.path.insert(0, sys.argv[1])
import models
name, cfg, threads, repeat, folder = sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
torch.set_num_threads(threads)
graph = json.load(open(folder + "/graph.json"))
def load(name):
    array = np.load(f"{folder}/{name}.npy")
    if array.dtype == np.uint16:  # bf16 bit patterns
        return torch.from_numpy(array.astype(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)
tensors = {s["name"]: load(s["name"]) for s in graph["inputs"]}
program = models.torch_program(name, cfg)
with torch.no_grad():
    # The reference outputs in f32 on the same inputs: PyTorch's own bf16
    # matmul on CPUs without AVX512_BF16 is far less accurate than one bf16
    # rounding (about 9 % of the outputs' scale at 1024^3).
    out = program({k: v.float() for k, v in tensors.items()})
    np.save(folder + f"/torch{threads}.npy", out.numpy())
    program(tensors)  # warm-up in the timed type
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        program(tensors)
        times.append((time.perf_counter() - start) * 1e3)
times.sort()
print(json.dumps({"min": times[0], "median": times[len(times) // 2]}))
'''


def shardgen_time(shardgen, folder, graph, devices, repeat):
    inputs = [f"{folder}/{s['name']}.npy" for s in graph["inputs"]]
    out = f"{folder}/out{devices}"
    cmd = [shardgen, "run", f"{folder}/graph.json", "--mesh", f"model={devices}",
           "--repeat", str(repeat), "-o", out, "--inputs", *inputs]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"shardgen failed ({result.returncode}):\n{result.stderr}")
    match = re.search(r"run\s+min ([\d.]+) ms, median ([\d.]+) ms", result.stderr)
    if not match:
        sys.exit("no per-call timing in shardgen's output:\n" + result.stderr)
    return {"min": float(match.group(1)), "median": float(match.group(2))}, as_float(
        np.load(out + "/out0.npy"))


def as_float(array):
    """f32 values of an f32 array or of bf16 bit patterns."""
    if array.dtype in (np.uint16, np.dtype("V2")):
        return (array.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return array


def to_bf16_bits(array):
    """f32 -> bf16 bit patterns, rounded to nearest even (as shardgen and torch round)."""
    bits = array.astype(np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def torch_time(name, cfg, threads, repeat, folder):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    # torch.set_num_threads does not bound OpenBLAS's own pool: without these,
    # "1 thread" ran its matmuls on every core (above one core's peak).
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = str(threads)
    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run([sys.executable, "-c", TORCH_WORKER, here, name, json.dumps(cfg),
                             str(threads), str(repeat), folder],
                            capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"PyTorch baseline failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1]), np.load(f"{folder}/torch{threads}.npy")


def gflop(name, cfg):
    if name == "matmul":
        return 2 * cfg["m"] * cfg["k"] * cfg["n"] / 1e9
    if name == "mlp":
        return 4 * cfg["batch"] * cfg["embed"] * cfg["hidden"] / 1e9
    b, s, e = cfg["batch"], cfg["seq"], cfg["embed"]
    attention = (8 * b * s * e * e + 4 * b * s * s * e) / 1e9
    return attention + (4 * b * s * e * cfg["hidden"] / 1e9 if name == "transformer" else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shardgen", required=True)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    parser.add_argument("--torch-repeat", type=int, default=None,
                        help="calls of PyTorch (default --repeat; its bf16 matmul is slow "
                             "on CPUs without AVX512_BF16)")
    parser.add_argument("programs", nargs="*", default=["mlp", "attention", "transformer"])
    args = parser.parse_args()
    configs = SMALL if args.small else CONFIGS
    torch_repeat = args.torch_repeat or args.repeat
    # bf16 rounds every op's result: compare at bf16's precision.
    tolerance = 2e-3 if args.dtype == "f32" else 2e-2

    print(f"{'program':12} {'GFLOP':>6} {'torch 1t':>9} {'torch 2t':>9} {'sg 1dev':>9} "
          f"{'sg 2dev':>9}   sg1/torch1  sg1/sg2  torchbest/sg2   (median ms)")
    for name in args.programs:
        cfg = configs[name]
        with tempfile.TemporaryDirectory(prefix=f"shardgen-bench-{name}-") as folder:
            _, graph = models.build(name, cfg, 2, args.dtype)
            json.dump(graph, open(f"{folder}/graph.json", "w"))
            for key, value in models.inputs_for(graph).items():
                np.save(f"{folder}/{key}.npy",
                        to_bf16_bits(value) if args.dtype == "bf16" else value)
            t1, ref = torch_time(name, cfg, 1, torch_repeat, folder)
            t2, _ = torch_time(name, cfg, 2, torch_repeat, folder)
            s1, out1 = shardgen_time(args.shardgen, folder, graph, 1, args.repeat)
            s2, out2 = shardgen_time(args.shardgen, folder, graph, 2, args.repeat)
            for out in (out1, out2):
                # bf16 (against PyTorch in f32 on the same inputs): within
                # the outputs' scale, as every bf16 op rounds its result.
                scale = np.max(np.abs(ref)) if args.dtype == "bf16" else 0
                if not np.allclose(out, ref, rtol=tolerance, atol=tolerance * max(scale, 1)):
                    sys.exit(f"{name}: shardgen and PyTorch disagree: max difference "
                             f"{np.max(np.abs(out - ref))}")
            best_torch = min(t1["median"], t2["median"])
            print(f"{name:12} {gflop(name, cfg):6.2f} {t1['median']:9.2f} {t2['median']:9.2f} "
                  f"{s1['median']:9.2f} {s2['median']:9.2f}   {s1['median'] / t1['median']:10.2f}"
                  f"  {s1['median'] / s2['median']:7.2f}  {best_torch / s2['median']:13.2f}")


if __name__ == "__main__":
    main()
