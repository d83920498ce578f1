#!/usr/bin/env python3
"""conv2d 3x3, 64 -> 64 channels, on 8x56x56 NHWC f32: the generated
convolution (shardgen run --repeat, one device, one thread) against
PyTorch's conv2d on one thread (channels_last), rounds interleaved in one
run. Prints each round's best times and their ratio (shardgen / torch;
the target is <= 1.5).

usage: bench/conv_vs_torch.py [path/to/shardgen] [rounds]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import torch

SHARDGEN = sys.argv[1] if len(sys.argv) > 1 else "build/shardgen"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
CALLS = 20

GRAPH = {
    "format": "shardgen-graph", "version": 1, "name": "conv_bench", "meshes": [],
    "inputs": [{"name": "x", "type": "tensor<8x56x56x64xf32>"},
               {"name": "w", "type": "tensor<3x3x64x64xf32>"}],
    "ops": [{"op": "convolution", "operands": ["x", "w"], "result": "y",
             "input_batch_dimension": 0, "input_feature_dimension": 3,
             "input_spatial_dimensions": [1, 2], "kernel_input_feature_dimension": 2,
             "kernel_output_feature_dimension": 3, "kernel_spatial_dimensions": [0, 1],
             "output_batch_dimension": 0, "output_feature_dimension": 3,
             "output_spatial_dimensions": [1, 2], "padding": [[1, 1], [1, 1]]}],
    "outputs": [{"value": "y"}],
}


def torch_best():
    torch.set_num_threads(1)
    x = torch.randn(8, 64, 56, 56).contiguous(memory_format=torch.channels_last)
    w = torch.randn(64, 64, 3, 3)
    torch.nn.functional.conv2d(x, w, padding=1)
    best = float("inf")
    for _ in range(CALLS):
        start = time.perf_counter()
        torch.nn.functional.conv2d(x, w, padding=1)
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def shardgen_best(graph, out):
    run = subprocess.run([SHARDGEN, "run", graph, "--repeat", str(CALLS), "-o", out],
                         capture_output=True, text=True, check=True)
    return float(re.search(r"run\s+min ([\d.]+) ms", run.stderr).group(1))


def main():
    with tempfile.TemporaryDirectory() as work:
        graph = os.path.join(work, "conv.json")
        with open(graph, "w") as f:
            json.dump(GRAPH, f)
        for r in range(ROUNDS):
            ours, theirs = shardgen_best(graph, work), torch_best()
            print(f"round {r}: shardgen {ours:.2f} ms, torch {theirs:.2f} ms, "
                  f"ratio {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
