#!/usr/bin/env python3
"""Runs the JAX-generated programs of openxla/stablehlo's stablehlo/testdata
through shardgen and compares their results with the values JAX computed.

    scripts/jax-testdata.py STABLEHLO_CHECKOUT SHARDGEN [--mode eval|run]
                            [--mesh] [--match REGEX] [--stride N] [--jobs N] [--out DIR]

Each file is a module JAX exported: `@main` calls `@inputs()` and
`@expected()` (constants) and checks its results with
`stablehlo.custom_call @check.expect_eq|expect_close|expect_almost_eq`. The
script removes the checks, makes `@main` return each checked value beside
the value JAX computed, runs `shardgen eval` (the reference interpreter) or
`shardgen run` (the generated code, one device), and compares:
- expect_eq: the same values (NaN equals NaN, -0 equals 0);
- expect_close and expect_almost_eq: within 1e-3 relative (1e-2 for f16 and
  bf16, whose ulp is coarser) plus 1e-5 absolute: the values JAX's own
  kernels computed, not a spec's correctly rounded ones.
With --mesh (run mode), every input gets a sharding constraint on a 2x2
mesh (its first dim of 2 or more elements on "x", the next on "y"), so the
whole program is partitioned over 4 devices, and `run --check` compares it
with the interpreter as well. It prints the counts and every file that does not pass with the first line
of what went wrong, and writes them to OUT/results.json. A sweep of all
~2300 files takes about 10 minutes in eval mode on 2 cores, an hour in run
mode (each file is compiled): --stride N takes every Nth file.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

CHECK = re.compile(r"^\s*stablehlo\.custom_call @check\.(\w+)\((%[\w#.]+), (%[\w#.]+)\)[^\n]*?"
                   r": \((.+)\) -> \(\)\s*$", re.M)


def split_types(text):
    """`t1, t2` at the top level of <> and ()."""
    out, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "<(" and 1 or (ch in ">)" and -1 or 0)
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    return out + [current.strip()]


def prepared(text):
    """The module with @main returning (checked, expected) pairs, and the
    checks' kinds; None when it states no check."""
    matches = list(CHECK.finditer(text))
    if not matches:
        return None, []
    checks = []
    for match in reversed(matches):
        types = split_types(match.group(4))
        checks.insert(0, (match.group(1), match.group(2), match.group(3), types[0], types[1]))
        text = text[:match.start()] + text[match.end():]
    main = text.index("func.func public @main(")
    body = text.index("{\n", main)
    signature = text[main:body]
    arrow = signature.index(") -> ")
    types = ", ".join(t for c in checks for t in (c[3], c[4]))
    values = ", ".join(v for c in checks for v in (c[1], c[2]))
    text = text[:main] + signature[:arrow] + ") -> (" + types + ") " + text[body:]
    ret = text.index("\n    return ", main)
    end = text.index("\n", ret + 1)
    text = text[:ret] + "\n    return " + values + " : " + types + text[end:]
    return text, [c[0] for c in checks]


CALL_INPUTS = re.compile(r"^(\s*)(%\w+)(?::(\d+))? = call @inputs\(\) : \(\) -> \(?(.*?)\)?$", re.M)


def sharding_of(tensor_type):
    dims = re.match(r"tensor<((?:\d+x)*)", tensor_type).group(1).split("x")[:-1]
    axes, specs = ["x", "y"], []
    for size in dims:
        specs.append('{"%s"}' % axes.pop(0) if int(size) >= 2 and axes else "{}")
    return "<@mesh, [%s]>" % ", ".join(specs)


def sharded(text):
    """The module on a 2x2 mesh, each of @main's inputs constrained."""
    call = CALL_INPUTS.search(text)
    if not call:
        return None
    indent, value, count, types = call.group(1), call.group(2), call.group(3), split_types(call.group(4))
    names = [value + "#%d" % k for k in range(len(types))] if count else [value]
    constraints, rest = "", text[call.end():]
    for k, (name, tensor_type) in enumerate(zip(names, types)):
        if not tensor_type.startswith("tensor<") or tensor_type.startswith("tensor<x") or \
                re.match(r"tensor<[a-z]", tensor_type):
            continue  # scalars stay replicated
        constraints += "\n%s%%sharded%d = sdy.sharding_constraint %s %s : %s" % (
            indent, k, name, sharding_of(tensor_type), tensor_type)
        rest = re.sub(re.escape(name) + r"(?![\w#])", "%%sharded%d" % k, rest)
    text = text[:call.end()] + constraints + rest
    return re.sub(r"^(module .*)$", '\\1\n  sdy.mesh @mesh = <["x"=2, "y"=2]>', text, count=1, flags=re.M)


def widened(array):
    """bf16 (.npy void of 2 bytes) as f32; other types as they are."""
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        bits = array.reshape(-1).view(np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).reshape(array.shape)
    return array


def difference(kind, got, expected, narrow):
    if got.shape != expected.shape:
        return "shape %s, JAX %s" % (got.shape, expected.shape)
    if got.size == 0:
        return ""
    if got.dtype.kind in "fc":
        g, e = got.astype(np.complex128), expected.astype(np.complex128)
        if kind == "expect_eq":
            bad = ~((g == e) | (np.isnan(g) & np.isnan(e)))
        else:
            bad = ~np.isclose(g, e, rtol=1e-2 if narrow else 1e-3, atol=1e-5, equal_nan=True)
    else:
        bad = got != expected
    if not bad.any():
        return ""
    at = tuple(np.argwhere(bad)[0])
    return "%d elements differ, first at %s: %r, JAX %r" % (bad.sum(), at, got[at], expected[at])


def run_file(path, shardgen, mode, mesh, scratch):
    name = os.path.basename(path)[:-len(".mlir")]
    with open(path) as f:
        text, kinds = prepared(f.read())
    if text is None:
        return name, "no check", ""
    if mesh:
        text = sharded(text)
        if text is None:
            return name, "no inputs", ""
    folder = os.path.join(scratch, name)
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(folder, "case.mlir")
    with open(source, "w") as f:
        f.write(text)
    out = os.path.join(folder, "out")
    try:
        command = [shardgen, mode, source, "-o", out] + (["--check"] if mesh else [])
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return name, "timeout", ""
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or [""])[0].replace(source + ":", "")
        return name, "exit %d" % done.returncode, message[:300]
    narrow = re.search(r"(bfloat16|float16)", name) is not None
    differences = []
    for k, kind in enumerate(kinds):
        got = widened(np.load(os.path.join(out, "out%d.npy" % (2 * k))))
        expected = widened(np.load(os.path.join(out, "out%d.npy" % (2 * k + 1))))
        diff = difference(kind, got, expected, narrow)
        if diff:
            differences.append("result %d: %s" % (k, diff))
    return name, "differs" if differences else "pass", "; ".join(differences)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout")
    parser.add_argument("shardgen")
    parser.add_argument("--mode", choices=["eval", "run"], default="eval")
    parser.add_argument("--mesh", action="store_true")
    parser.add_argument("--match", default="")
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=tempfile.mkdtemp(prefix="shardgen-testdata-"))
    options = parser.parse_args()
    if options.mesh and options.mode != "run":
        parser.error("--mesh runs the partitioned program: --mode run")
    files = sorted(glob.glob(os.path.join(options.checkout, "stablehlo", "testdata", "*.mlir")))
    files = [f for f in files if re.search(options.match, os.path.basename(f))][::options.stride]
    shardgen = os.path.abspath(options.shardgen)
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        results = list(pool.map(lambda f: run_file(f, shardgen, options.mode, options.mesh, options.out), files))
    with open(os.path.join(options.out, "results.json"), "w") as f:
        json.dump(results, f, indent=0)
    for name, status, message in results:
        if status != "pass":
            print("%s: %s: %s" % (name, status, message))
    counts = collections.Counter(status.split()[0] for _, status, _ in results)
    print("jax testdata (%s): %d files, %s; results in %s" %
          (options.mode, len(results), ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items())),
           options.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
