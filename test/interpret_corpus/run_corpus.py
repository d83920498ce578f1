#!/usr/bin/env python3
"""Runs the StableHLO interpreter corpus (cases/*.json, written by
scripts/translate-interpret-corpus.py) through shardgen.

    run_corpus.py SHARDGEN [--cases DIR] [--known-failures FILE] [--jobs N]
                  [--only NAME_SUBSTRING] [--write-known-failures]

A case passes when `shardgen eval` and `shardgen run --check` on the 2x2
mesh both give the results the specification's test states. Prints every
skipped case with its reason, every failing case with the first line of
what went wrong, and the counts. Exits non-zero when a case fails that
KNOWN_FAILURES.txt does not list, or passes while listed there (the list
is kept exact, so a fix or a regression both show).
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # the suite's packages step installs python3-numpy
    print("run_corpus.py: numpy is missing: skipped")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))


def literal_module(literals):
    """A module returning the literals: `shardgen eval` turns them into .npy."""
    lines, types, names = ["module {"], [], []
    for i, literal in enumerate(literals):
        value, _, tensor_type = literal.rpartition(" : ")
        lines.append("  %%l%d = stablehlo.constant %s : %s" % (i, value, tensor_type))
        types.append(tensor_type)
        names.append("%%l%d" % i)
    lines.insert(1, "func.func @main() -> (%s) {" % ", ".join(types))
    lines.append("  return %s : %s" % (", ".join(names), ", ".join(types)))
    lines.append("}\n}")
    return "\n".join(lines) + "\n"


def first_line(text):
    for line in text.splitlines():
        if line.strip():  # without the scratch folder's name, which changes
            return re.sub(r"\S*shardgen-corpus-[^/]*/\d+/", "", line.strip())[:200]
    return "(no message)"


def shardgen(binary, args, what):
    result = subprocess.run([binary] + args, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise CaseFailure("%s exit %d: %s" % (what, result.returncode, first_line(result.stderr)))


class CaseFailure(Exception):
    pass


def ordered_bits(values):
    """Floats as integers in the order of the floats they encode (ulp steps)."""
    bits = values.view({2: np.int16, 4: np.int32, 8: np.int64}[values.dtype.itemsize]).astype(np.int64)
    sign_bit = np.int64(1) << (8 * values.dtype.itemsize - 1)
    return np.where(bits < 0, -(bits & (sign_bit - 1)), bits)


# The 8-, 6- and 4-bit floats shardgen writes as uint8 codes (one a byte):
# name -> (exponent bits, mantissa bits, bias, kind), as
# runtime/include/shardgen/minifloat.h (LLVM APFloat's formats).
MINI_FLOATS = {
    "f8E3M4": (3, 4, 3, "ieee"), "f8E4M3": (4, 3, 7, "ieee"), "f8E4M3FN": (4, 3, 7, "fn"),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz"), "f8E4M3B11FNUZ": (4, 3, 11, "fnuz"), "f8E5M2": (5, 2, 15, "ieee"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"), "f8E8M0FNU": (8, 0, 127, "e8m0"), "f6E2M3FN": (2, 3, 1, "finite"),
    "f6E3M2FN": (3, 2, 3, "finite"), "f4E2M1FN": (2, 1, 1, "finite"),
}


def mini_float_values(codes, name):
    """The values (float64) of a mini float type's codes."""
    e_bits, m_bits, bias, kind = MINI_FLOATS[name]
    out = np.empty(codes.shape, np.float64)
    for index, code in np.ndenumerate(codes.astype(np.int64)):
        sign_bit = 0 if kind == "e8m0" else 1 << (e_bits + m_bits)
        field, mantissa = (code & ~sign_bit) >> m_bits, code & ((1 << m_bits) - 1)
        top = (1 << e_bits) - 1
        if (kind == "fnuz" and code == 0x80) or (kind == "e8m0" and code == 0xFF) or \
                (kind == "fn" and field == top and mantissa == (1 << m_bits) - 1) or \
                (kind == "ieee" and field == top and mantissa != 0):
            out[index] = np.nan
            continue
        if kind == "ieee" and field == top:
            value = np.inf
        elif kind == "e8m0":
            value = 2.0 ** (field - bias)
        elif field == 0:
            value = mantissa * 2.0 ** (1 - bias - m_bits)
        else:
            value = ((1 << m_bits) + mantissa) * 2.0 ** (field - bias - m_bits)
        out[index] = -value if code & sign_bit else value
    return out


def element_type(tensor_type):
    """The element type's name of 'tensor<2x3xf8E4M3FN>' (None if none)."""
    match = re.search(r"tensor<(?:[0-9]+x)*([A-Za-z0-9]+)", tensor_type)
    return match.group(1) if match else None


def main_result_types(module):
    """The element types of @main's results, in order."""
    match = re.search(r"func\.func\s+(?:public\s+)?@main\(.*?\)\s*->(.*?)\{", module, re.S)
    return [element_type(t) for t in re.findall(r"tensor<[^>]*>", match.group(1))] if match else []


def same(actual, expected, expect, type_name=None):
    if type_name in MINI_FLOATS and actual.dtype == np.uint8 and expected.dtype == np.uint8:
        actual, expected = mini_float_values(actual, type_name), mini_float_values(expected, type_name)
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return "shape or type %s %s, expected %s %s" % (actual.dtype, actual.shape, expected.dtype, expected.shape)
    if actual.dtype.kind == "f" and "max_ulp" in expect:
        ulps = np.abs(ordered_bits(actual) - ordered_bits(expected))
        bad = (ulps > expect["max_ulp"]) | (ulps < expect.get("min_ulp", 0))
    elif actual.dtype.kind in "fc":
        a, e = actual.astype(np.complex128), expected.astype(np.complex128)
        nan_a, nan_e = np.isnan(a.real) | np.isnan(a.imag), np.isnan(e.real) | np.isnan(e.imag)
        with np.errstate(invalid="ignore"):
            close = (a == e) if expect["exact"] else (np.abs(a - e) <= expect.get("tolerance", 1e-4)) | (a == e)
        bad = np.where(nan_a | nan_e, nan_a != nan_e, ~close)
    else:
        bad = actual != expected
    if np.any(bad):
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        return "at %s: %r, expected %r" % (index, actual[index], expected[index])
    return None


def load_npy(path):
    """An .npy file; bfloat16 (which numpy stores as 2-byte void) as float32."""
    values = np.load(path, allow_pickle=False)
    if values.dtype.kind == "V" and values.dtype.itemsize == 2:
        values = (values.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return values


def run_case(binary, case, work):
    os.makedirs(work, exist_ok=True)
    literals = case["inputs"] + [e["literal"] for e in case["expect"] if "literal" in e]
    if literals:
        with open(os.path.join(work, "literals.mlir"), "w") as f:
            f.write(literal_module(literals))
        shardgen(binary, ["eval", os.path.join(work, "literals.mlir"), "-o", os.path.join(work, "literals")],
                 "reading the literals")
    values = [os.path.join(work, "literals", "out%d.npy" % i) for i in range(len(literals))]
    inputs, expected = values[:len(case["inputs"])], values[len(case["inputs"]):]
    graph = os.path.join(work, "case.mlir")
    with open(graph, "w") as f:
        f.write(case["module"])
    input_args = ["--inputs"] + inputs if inputs else []
    shardgen(binary, ["eval", graph] + input_args + ["-o", os.path.join(work, "eval")], "eval")
    shardgen(binary, ["run", graph] + input_args + ["-o", os.path.join(work, "run"), "--check", "--timeout", "60"],
             "run --check on 2x2")
    result_types = main_result_types(case["module"])
    for mode in ("eval", "run"):
        literal_index = 0
        for expect in case["expect"]:
            actual = load_npy(os.path.join(work, mode, "out%d.npy" % expect["output"]))
            if "literal" in expect:
                wanted = load_npy(expected[literal_index])
                literal_index += 1
            else:
                wanted = load_npy(os.path.join(work, mode, "out%d.npy" % expect["equals_output"]))
            output = expect["output"]
            problem = same(actual, wanted, expect, result_types[output] if output < len(result_types) else None)
            if problem:
                raise CaseFailure("%s: output %d %s" % (mode, expect["output"], problem))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shardgen")
    parser.add_argument("--cases", default=os.path.join(HERE, "cases"))
    parser.add_argument("--known-failures", default=os.path.join(HERE, "KNOWN_FAILURES.txt"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only")
    parser.add_argument("--write-known-failures", action="store_true")
    options = parser.parse_args()

    cases = []
    for name in sorted(os.listdir(options.cases)):
        if name.endswith(".json"):
            with open(os.path.join(options.cases, name)) as f:
                for case in json.load(f)["cases"]:
                    case["id"] = name[:-len(".json")] + "/" + case["name"]
                    if not options.only or options.only in case["id"]:
                        cases.append(case)
    known = set()
    if os.path.exists(options.known_failures):
        with open(options.known_failures) as f:
            known = {line.split()[0] for line in f if line.strip() and not line.startswith("#")}

    skipped = [c for c in cases if "skip" in c]
    runnable = [c for c in cases if "skip" not in c]
    failures = {}
    with tempfile.TemporaryDirectory(prefix="shardgen-corpus-") as scratch:
        os.environ["XDG_CACHE_HOME"] = os.path.join(scratch, "cache")

        def attempt(index_and_case):
            index, case = index_and_case
            try:
                run_case(options.shardgen, case, os.path.join(scratch, str(index)))
            except CaseFailure as failure:
                return case["id"], str(failure)
            except subprocess.TimeoutExpired:
                return case["id"], "timed out"
            return case["id"], None

        with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
            for case_id, failure in pool.map(attempt, enumerate(runnable)):
                if failure:
                    failures[case_id] = failure

    for case in skipped:
        print("skipped %s: %s" % (case["id"], case["skip"]))
    for case_id in sorted(failures):
        print("failed  %s: %s" % (case_id, failures[case_id]))
    passed = len(runnable) - len(failures)
    print("interpret corpus: %d functions, %d pass eval and run on 2x2 (%.0f%%), %d fail, %d skipped"
          % (len(cases), passed, 100.0 * passed / max(len(cases), 1), len(failures), len(skipped)))

    if options.write_known_failures:
        with open(options.known_failures, "w") as f:
            f.write("# Corpus cases that fail today (run_corpus.py --write-known-failures), each with what\n"
                    "# went wrong. The runner fails when this list is not exact.\n")
            for case_id in sorted(failures):
                f.write("%s  %s\n" % (case_id, failures[case_id]))
        return 0
    if options.only:
        known = {k for k in known if options.only in k}
    regressions = sorted(set(failures) - known)
    fixed = sorted(k for k in known if k not in failures and any(c["id"] == k for c in runnable))
    for case_id in regressions:
        print("REGRESSION %s: %s" % (case_id, failures[case_id]))
    for case_id in fixed:
        print("NOW PASSES %s: remove it from %s" % (case_id, os.path.basename(options.known_failures)))
    return 1 if regressions or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
