#!/usr/bin/env python3
"""Translates StableHLO's JAX-generated test data into interpreter corpus cases.

    scripts/translate-testdata-corpus.py STABLEHLO_CHECKOUT [OUT_DIR]

openxla/stablehlo's stablehlo/testdata/*.mlir were made by JAX on XLA's CPU
backend: `@main` runs one op on the tensor `@inputs()` returns and checks the
result against the one `@expected()` returns (`check.expect_close`). For the
files FILES lists, each becomes a case of test/interpret_corpus/cases/
testdata__GROUP.json (the format of scripts/translate-interpret-corpus.py's
cases, run by run_corpus.py): a module whose `@main` takes the input as an
argument, sharded over the 2x2 mesh on its first two dims of 2 or more
elements, and returns the op's result; the input and JAX's result as
literals. The leading (batch) dims the op keeps are cut to their first
BATCH entries, in the input and the result alike, so that a case stays
small (the op treats each batch index alone); `tolerance` is TOLERANCE
times the part type's epsilon times the largest |result|.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import numpy as np

# The interpreter tests' translator: its 2x2 sharding of an argument.
_spec = importlib.util.spec_from_file_location(
    "translate_interpret_corpus", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                               "translate-interpret-corpus.py"))
_interpret = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_interpret)
sharding_for = _interpret.sharding_for

# group -> (files, how many leading dims of the input are batch dims)
FILES = {
    "fft": [
        ("fft_complex128_14_15_0_17.mlir", 3),
        ("fft_complex128_14_15_16_17.mlir", 3),
        ("fft_complex64_14_15_0_17.mlir", 3),
        ("fft_complex64_14_15_16_17.mlir", 1),  # IRFFT over the trailing 3 dims
        ("fft_float32_14_15_0_17.mlir", 3),
        ("fft_float32_14_15_16_17.mlir", 3),
        ("fft_float64_14_15_0_17.mlir", 3),
        ("fft_float64_14_15_16_17.mlir", 3),
    ],
}
BATCH = 2
TOLERANCE = 16

DTYPES = {"f32": np.float32, "f64": np.float64, "complex<f32>": np.complex64,
          "complex<f64>": np.complex128}
TYPE = _interpret.TYPE


def parse_type(text):
    match = re.match(r"tensor<((?:\d+x)*)(.+)>$", text)
    return [int(d) for d in match.group(1).split("x") if d], match.group(2)


def print_type(dims, element):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in dims), element)


def literal_value(text, tensor_type):
    """The array a `dense<...>` of the test data holds (hex or a splat)."""
    dims, element = parse_type(tensor_type)
    dtype = DTYPES[element]
    body = re.match(r"dense<(.*)>$", text, re.S).group(1).strip()
    if body.startswith('"0x'):
        return np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype).reshape(dims)
    if body == "":
        return np.zeros(dims, dtype=dtype)
    complex_splat = re.match(r"\(([^,]+),([^)]+)\)$", body)
    value = complex(float(complex_splat.group(1)), float(complex_splat.group(2))) if complex_splat \
        else float(body)
    return np.full(dims, value, dtype=dtype)


def print_literal(value, element):
    """`dense<"0x...">` (little-endian bytes, as MLIR prints them), or
    `dense<>` for no elements."""
    if value.size == 0:
        return "dense<>"
    return 'dense<"0x%s">' % np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<")).tobytes().hex().upper()


def function_constant(text, function):
    match = re.search(r"func\.func private @%s\(\).*?stablehlo\.constant (dense<.*?>) : (%s)" % (function, TYPE),
                      text, re.S)
    return literal_value(match.group(1), match.group(2)), match.group(2)


def translate(text, batch_dims):
    op = re.search(r"^\s*%2 = (stablehlo\.\w+) %0, (.*) : \((" + TYPE + r")\) -> (" + TYPE + r")\s*$", text, re.M)
    name, attributes = op.group(1), op.group(2)  # as JAX printed them (`type =  IRFFT`)
    inputs, input_type = function_constant(text, "inputs")
    expected, result_type = function_constant(text, "expected")
    cut = tuple(slice(0, BATCH) for _ in range(batch_dims))
    inputs, expected = inputs[cut], expected[cut]
    in_dims, in_element = parse_type(input_type)
    out_dims, out_element = parse_type(result_type)
    in_type = print_type(list(inputs.shape), in_element)
    out_type = print_type(list(expected.shape), out_element)
    module = "\n".join([
        "module {",
        '  sdy.mesh @mesh = <["x"=2, "y"=2]>',
        "  func.func @main(%%operand: %s {sdy.sharding = %s}) -> (%s) {" % (in_type, sharding_for(inputs.shape), out_type),
        "    %%result = %s %%operand, %s : (%s) -> %s" % (name, attributes, in_type, out_type),
        "    return %%result : %s" % out_type,
        "  }",
        "}",
    ]) + "\n"
    eps = float(np.finfo(expected.real.dtype).eps)
    largest = float(np.abs(expected).max()) if expected.size else 0.0
    return {
        "module": module,
        "inputs": ["%s : %s" % (print_literal(inputs, in_element), in_type)],
        "expect": [{"output": 0, "exact": False,
                    "literal": "%s : %s" % (print_literal(expected, out_element), out_type),
                    "tolerance": max(TOLERANCE * eps * largest, eps)}],
    }


def main():
    checkout, out_dir = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else
                                      os.path.join(os.path.dirname(__file__), "..", "test", "interpret_corpus", "cases"))
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    for group, files in FILES.items():
        cases = []
        for file, batch_dims in files:
            text = subprocess.run(["git", "-C", checkout, "show", "HEAD:stablehlo/testdata/" + file],
                                  capture_output=True, text=True, check=True).stdout
            cases.append({"name": file[:-len(".mlir")], **translate(text, batch_dims)})
        with open(os.path.join(out_dir, "testdata__%s.json" % group), "w") as f:
            json.dump({"_source": "openxla/stablehlo %s stablehlo/testdata/%s_*.mlir (JAX on XLA's CPU backend; "
                       "facts translated: the input as a sharded argument, the batch dims cut to %d, JAX's "
                       "result as the expected literal)" % (commit[:12], group, BATCH), "cases": cases}, f, indent=1)
            f.write("\n")
        print("translated %d files into %s" % (len(cases), out_dir))


if __name__ == "__main__":
    main()
