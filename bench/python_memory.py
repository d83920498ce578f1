#!/usr/bin/python3
"""Compiling and dropping many programs in one process (issue 26): the
resident set after N programs compiled and dropped, against the resident
set after the first few (the process's fixed costs: LLVM, the JIT's first
compile, numpy). A program holds its JIT code and buffers only while it is
referenced.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_memory.py [N] [--no-cache]

With the cache (the default) every compile after the first loads the
cached object (what a long-lived process recompiling the same graph does);
with --no-cache each one runs clang and LLVM's code generation. The graphs
alternate between samples/mlp.json and samples/attention.json, each called
once. RSS is read from /proc/self/status, also after glibc's malloc_trim
(what is free but kept by the allocator).
"""

import argparse
import ctypes
import gc
import pathlib
import time

import numpy as np

import shardgen

ROOT = pathlib.Path(__file__).resolve().parents[1]
libc = ctypes.CDLL("libc.so.6")


def rss_mib():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit("no VmRSS")


def trimmed_rss_mib():
    libc.malloc_trim(0)
    return rss_mib()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=500)
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    graphs = [shardgen.load(ROOT / "samples" / name) for name in ("mlp.json", "attention.json")]
    rng = np.random.default_rng(0)
    inputs = [[rng.uniform(-1, 1, s.shape).astype(s.dtype) for s in g.inputs] for g in graphs]
    start = time.perf_counter()
    baseline = None
    for k in range(args.count):
        prog = shardgen.compile(graphs[k % 2], cache=not args.no_cache)
        prog(*inputs[k % 2])
        del prog
        gc.collect()
        if k + 1 == args.warmup:
            baseline = (rss_mib(), trimmed_rss_mib())
            print(f"after {k + 1:4d} programs: RSS {baseline[0]:7.1f} MiB "
                  f"({baseline[1]:7.1f} MiB after malloc_trim)")
        elif (k + 1) % 100 == 0 or k + 1 == args.count:
            now = (rss_mib(), trimmed_rss_mib())
            print(f"after {k + 1:4d} programs: RSS {now[0]:7.1f} MiB "
                  f"({now[1]:7.1f} MiB after malloc_trim), "
                  f"{time.perf_counter() - start:6.1f} s")
    final = (rss_mib(), trimmed_rss_mib())
    print(f"growth from program {args.warmup} to {args.count}: {final[0] - baseline[0]:.1f} MiB "
          f"({final[1] - baseline[1]:.1f} MiB after malloc_trim; goal < 50 MB)")


if __name__ == "__main__":
    main()
