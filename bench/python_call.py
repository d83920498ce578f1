#!/usr/bin/python3
"""What a call from Python costs (issue 26), against the same compiled code
called from C++ in the same run:

1. zero copy: a program reading 16 floats of a 512 MiB input, called from
   Python on a numpy array, against the same code with the input already
   bound (Program._time_bound_calls: the C++ loop over CompiledProgram::run
   on pointers it holds); and a numpy copy of the input, what a call that
   copied would add;
2. overhead: samples/mlp.json called from Python against the same code
   called from C++ (_time_bound_calls), and against `shardgen run --repeat`
   (the tool's per-call time, C++ CompiledProgram::run on Literals); and
   on a one-device mesh (no device threads to start), where the difference
   is the Python layer alone, whatever the machine's load.

Medians of interleaved rounds; nothing is asserted.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_call.py [--shardgen build/shardgen]
"""

import argparse
import json
import pathlib
import re
import statistics
import subprocess
import time

import numpy as np

import shardgen

ROOT = pathlib.Path(__file__).resolve().parents[1]


def python_seconds(prog, arrays, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        prog(*arrays)
        times.append(time.perf_counter() - start)
    return times


def rounds(prog, arrays, repeat, count):
    """Medians over `count` interleaved rounds of Python and bound calls."""
    python, bound = [], []
    for _ in range(count):
        python += python_seconds(prog, arrays, repeat)
        bound += prog._time_bound_calls(repeat, *arrays)
    return statistics.median(python), statistics.median(bound), min(python), min(bound)


def zero_copy(count):
    rows, columns = 8192, 16384  # 512 MiB of f32
    graph = shardgen.load(json.dumps({
        "format": "shardgen-graph", "version": 1, "name": "first_row",
        "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
        "inputs": [{"name": "big", "type": f"tensor<{rows}x{columns}xf32>",
                    "sharding": "<@mesh, [{}, {}]>"}],
        "ops": [{"op": "slice", "operands": ["big"], "result": "head",
                 "start_indices": [0, 0], "limit_indices": [1, 16]}],
        "outputs": [{"value": "head"}],
    }))
    prog = shardgen.compile(graph)
    big = np.random.default_rng(0).standard_normal((rows, columns), dtype=np.float32)
    np.testing.assert_array_equal(prog(big)[0], big[:1, :16])
    python, bound, python_min, bound_min = rounds(prog, [big], 50, count)
    copies = []
    for _ in range(5):
        start = time.perf_counter()
        big.copy()
        copies.append(time.perf_counter() - start)
    copy = statistics.median(copies)
    print("1. zero copy: 512 MiB input, 16 floats read (median; min in brackets)")
    print(f"   Python call            {python * 1e6:9.1f} us  [{python_min * 1e6:.1f}]")
    print(f"   input already bound    {bound * 1e6:9.1f} us  [{bound_min * 1e6:.1f}]")
    print(f"   numpy copy of input    {copy * 1e6:9.1f} us")
    print(f"   Python / bound = {python / bound:.2f}; a copying call would be "
          f"{(python + copy) / bound:.0f}x")


def tool_call_seconds(tool, repeat):
    result = subprocess.run([tool, "run", str(ROOT / "samples" / "mlp.json"), "--repeat",
                             str(repeat), "-o", "/tmp/shardgen-bench-python-call"],
                            capture_output=True, text=True, check=True)
    match = re.search(r"run +min ([0-9.]+) ms, median ([0-9.]+) ms per call", result.stderr)
    if not match:
        raise SystemExit("unexpected `run --repeat` output:\n" + result.stderr)
    return float(match.group(2)) / 1e3, float(match.group(1)) / 1e3


def overhead(tool, count, mesh=None):
    graph = shardgen.load(ROOT / "samples" / "mlp.json")
    prog = shardgen.compile(graph, mesh=mesh)
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-1, 1, spec.shape).astype(spec.dtype) for spec in prog.inputs]
    python, bound, python_min, bound_min = rounds(prog, arrays, 2000, count)
    print(f"2. call overhead, samples/mlp.json on {prog.num_devices} device(s) "
          "(median; min in brackets)")
    print(f"   Python call            {python * 1e6:9.1f} us  [{python_min * 1e6:.1f}]")
    print(f"   C++, inputs bound      {bound * 1e6:9.1f} us  [{bound_min * 1e6:.1f}]")
    print(f"   Python - C++ = {(python - bound) * 1e6:.1f} us "
          f"[{(python_min - bound_min) * 1e6:.1f}] (goal <= 20 us)")
    if tool and mesh is None:
        median, minimum = tool_call_seconds(tool, 2000)
        print(f"   shardgen run --repeat  {median * 1e6:9.1f} us  [{minimum * 1e6:.1f}]")
        print(f"   Python - tool = {(python - median) * 1e6:.1f} us "
              f"[{(python_min - minimum) * 1e6:.1f}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shardgen", help="the tool, for its `run --repeat` figure")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    zero_copy(args.rounds)
    overhead(args.shardgen, args.rounds)
    overhead(args.shardgen, args.rounds, mesh={"data": 1, "model": 1})


if __name__ == "__main__":
    main()
