#!/usr/bin/env python3
"""Translates the StableHLO interpreter's tests into shardgen's corpus cases.

    scripts/translate-interpret-corpus.py STABLEHLO_CHECKOUT [OUT_DIR]

openxla/stablehlo's stablehlo/tests/interpret/*.mlir hold the specification's
own interpreter tests: functions split by `// -----`, whose constants are the
inputs and whose `check.expect_*` ops state the results. Each function
becomes a case of test/interpret_corpus/cases/FILE.json: a module whose
`@main` takes the function's constants of rank >= 1 as arguments, sharded
over a 2x2 mesh where a dim has 2 or more elements (the first such dim on
"x", the next on "y"), and returns every checked value; the argument values
and the expected results as MLIR literals. A function the corpus cannot run
as a program on a mesh is a case with the reason it is skipped.
run_corpus.py runs the cases through `shardgen eval` and `shardgen run`; the
first case of each file also seeds fuzz_mlir (test/fuzz/corpus/mlir_interpret).
"""
import json
import os
import re
import subprocess
import sys

# Features outside the corpus's scope (the list), by what marks them.
OUT_OF_SCOPE = [
    (re.compile(r"tensor<[^>]*\?|stablehlo\.(dynamic_(broadcast_in_dim|conv|gather|iota|pad|reshape)|"
                r"get_dimension_size|real_dynamic_slice)\b"), "dynamic shapes"),
    (re.compile(r"!quant\.|quant\.uniform"), "quantized types"),
    (re.compile(r"infeed|outfeed|\"?stablehlo\.send|\"?stablehlo\.recv"),
     "infeed, outfeed, send and recv (I/O with tokens)"),
    (re.compile(r"cholesky"), "cholesky"),
    (re.compile(r"interpreter\.run_parallel"),
     "the interpreter's process grid (interpreter.run_parallel): replica and partition "
     "ids have no counterpart in a program on a mesh"),
    (re.compile(r"check\.expect_serialized_eq|interpreter\.probe"), "the interpreter's probe instrumentation"),
    (re.compile(r"interpreter\.print|check\.print"), "the interpreter's printing"),
]


def split_statements(lines):
    """Top-level statements of a function body: a statement ends where its
    (), [] and {} balance (constants and regions span lines)."""
    statements, current, depth = [], [], 0
    for line in lines:
        stripped = line.split("//")[0].rstrip() if not line.strip().startswith("\"") else line.rstrip()
        if not stripped.strip() and not current:
            continue
        if stripped.lstrip().startswith(">") and not current and statements:
            # The close of a literal spread over lines (`dense<` ... `> : t`).
            statements[-1] += "\n" + stripped
            continue
        current.append(stripped)
        in_string = False
        for ch in stripped:
            if ch == '"':
                in_string = not in_string
            elif not in_string and ch in "([{":
                depth += 1
            elif not in_string and ch in ")]}":
                depth -= 1
        if depth <= 0 and not stripped.rstrip().endswith((",", "dense<")):
            statements.append("\n".join(current))
            current, depth = [], 0
    if current:
        statements.append("\n".join(current))
    return statements


def functions(chunk):
    """(name, signature line, body lines, whole text) of each func.func."""
    lines = chunk.split("\n")
    result, i = [], 0
    while i < len(lines):
        match = re.match(r"\s*func\.func\s+(?:public\s+|private\s+)?@([\w.$-]+)\s*\((.*)", lines[i])
        if not match:
            i += 1
            continue
        start, depth, body = i, 0, []
        # The signature may span lines; the body starts after the first '{'.
        while True:
            depth += lines[i].count("{") - lines[i].count("}")
            if depth > 0 or i > start:
                break
            i += 1
        header_end = i
        i += 1
        while i < len(lines) and depth > 0:
            depth += lines[i].count("{") - lines[i].count("}")
            if depth > 0:
                body.append(lines[i])
            i += 1
        result.append((match.group(1), "\n".join(lines[start:header_end + 1]), body,
                       "\n".join(lines[start:i])))
    return result


def rank_and_dims(tensor_type):
    match = re.match(r"tensor<((?:\d+x)*)(.+)>$", tensor_type.strip())
    if not match:
        return None
    dims = [int(d) for d in match.group(1).split("x") if d]
    return dims


def sharding_for(dims):
    axes, specs = ["x", "y"], []
    for size in dims:
        if size >= 2 and axes:
            specs.append('{"%s"}' % axes.pop(0))
        else:
            specs.append("{}")
    return "#sdy.sharding<@mesh, [%s]>" % ", ".join(specs)


TYPE = r"tensor<(?:[^<>]|<[^<>]*>)*>"
CONSTANT = re.compile(r"^\s*(%[\w]+)\s*=\s*stablehlo\.constant\s+(dense<.*>|dense_resource<.*>)\s*:\s*(" + TYPE + r")\s*$",
                      re.S)
CHECK = re.compile(r"^\s*check\.(\w+)\s+(.*)$", re.S)


def uses(name, text):
    return re.search(re.escape(name) + r"(?![\w#])", text) is not None


def translate_function(name, body, others):
    statements = split_statements(body)
    constants, checks, kept = {}, [], []
    for statement in statements:
        constant = CONSTANT.match(statement)
        check = CHECK.match(statement)
        if constant:
            constants[constant.group(1)] = (constant.group(2), constant.group(3))
            kept.append(("constant", constant.group(1), statement))
        elif check:
            checks.append((check.group(1), check.group(2)))
        elif re.match(r"^\s*(func\.)?return\b", statement):
            continue
        else:
            kept.append(("op", None, statement))
    if not checks:
        return {"skip": "states no result (no check.expect_*)"}
    outputs, expects = [], []
    for kind, operands in checks:
        exact = kind in ("expect_eq_const", "expect_eq")
        if kind in ("expect_eq_const", "expect_almost_eq_const"):
            match = re.match(r"(%[\w#]+)\s*,\s*(dense<.*>)\s*:\s*(" + TYPE + r")\s*"
                             r"(?:\{tolerance = ([-+.\deE]+) : f\d+\})?\s*(?:,\s*tolerance = ([-+.\deE]+))?\s*$",
                             operands, re.S)
            if not match:
                return {"skip": "a check the translator does not read: " + operands.split("\n")[0]}
            outputs.append((match.group(1), match.group(3)))
            expects.append({"output": len(outputs) - 1, "exact": exact,
                            "literal": re.sub(r"\s+", " ", match.group(2)) + " : " + match.group(3)})
            if not exact:
                expects[-1]["tolerance"] = float(match.group(4) or match.group(5) or 1e-4)
        elif kind in ("expect_eq", "expect_almost_eq", "expect_close"):
            match = re.match(r"(%[\w#]+)\s*,\s*(%[\w#]+)[^:]*:\s*(" + TYPE + r")", operands, re.S)
            if not match:
                return {"skip": "a check the translator does not read: " + operands.split("\n")[0]}
            outputs.append((match.group(1), match.group(3)))
            outputs.append((match.group(2), match.group(3)))
            expects.append({"output": len(outputs) - 2, "equals_output": len(outputs) - 1,
                            "exact": exact})
            for key, field in (("max_ulp_difference", "max_ulp"), ("min_ulp_difference", "min_ulp")):
                ulps = re.search(key + r" = (\d+)", operands)
                if kind == "expect_close":
                    expects[-1][field] = int(ulps.group(1)) if ulps else (1 if field == "max_ulp" else 0)
            tolerance = re.search(r"tolerance = ([-+.\deE]+)", operands)
            if not exact:
                expects[-1]["tolerance"] = float(tolerance.group(1)) if tolerance else 1e-4
        else:
            return {"skip": "check." + kind + " has no counterpart"}
    # Constants of rank >= 1 that ops (not only checks) use become arguments.
    op_text = "\n".join(text for role, _, text in kept if role == "op")
    op_text += "\n" + "\n".join(text for _, text in others)
    arguments, body_lines, inputs = [], [], []
    for role, value, text in kept:
        if role == "constant":
            literal, tensor_type = constants[value]
            dims = rank_and_dims(tensor_type)
            if dims and uses(value, op_text):
                arguments.append("%s: %s {sdy.sharding = %s}" % (value, tensor_type, sharding_for(dims)))
                inputs.append(re.sub(r"\s+", " ", literal) + " : " + tensor_type)
                continue
        body_lines.append(text)
    result_types = ", ".join(t for _, t in outputs)
    results = ", ".join(v for v, _ in outputs)
    module = ["module {", '  sdy.mesh @mesh = <["x"=2, "y"=2]>']
    for _, text in others:
        module.append(text)
    module.append("  func.func @main(%s) -> (%s) {" % (", ".join(arguments), result_types))
    module.extend(body_lines)
    module.append("    return %s : %s" % (results, result_types))
    module.append("  }")
    module.append("}")
    return {"module": "\n".join(module) + "\n", "inputs": inputs, "expect": expects}


def translate_chunk(chunk):
    funcs = functions(chunk)
    checked = [f for f in funcs if any("check." in line for line in f[2])]
    for pattern, reason in OUT_OF_SCOPE:
        if pattern.search(chunk):
            return (checked or funcs or [[None]])[0][0], {"skip": "out of scope: " + reason}
    if len(checked) != 1:
        return (funcs[0][0] if funcs else None), {"skip": "no single function states the results"}
    name, signature, body, _ = checked[0]
    if not re.search(r"@[\w.$-]+\s*\(\s*\)", signature):
        return name, {"skip": "takes arguments the interpreter's --args supplies"}
    others = [(f[0], f[3]) for f in funcs if f is not checked[0]]
    if any(other == "main" for other, _ in others):
        return name, {"skip": "another function is called @main"}
    return name, translate_function(name, body, others)


def main():
    checkout, out_dir = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else
                                      os.path.join(os.path.dirname(__file__), "..", "test", "interpret_corpus", "cases"))
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    tree = subprocess.run(["git", "-C", checkout, "ls-tree", "-r", "--name-only", "HEAD", "stablehlo/tests/interpret/"],
                          capture_output=True, text=True, check=True).stdout.split()
    os.makedirs(out_dir, exist_ok=True)
    # One module per source file seeds fuzz_mlir (test/fuzz): every op and
    # attribute form of the spec's tests, as the importer sees them here.
    seed_dir = os.path.join(out_dir, "..", "..", "fuzz", "corpus", "mlir_interpret")
    os.makedirs(seed_dir, exist_ok=True)
    total = 0
    for path in sorted(tree):
        if not path.endswith(".mlir"):
            continue
        text = subprocess.run(["git", "-C", checkout, "show", "HEAD:" + path], capture_output=True, text=True,
                              check=True).stdout
        cases, seen = [], {}
        for index, chunk in enumerate(re.split(r"^// -----\s*$", text, flags=re.M)):
            if "func.func" not in chunk:
                continue
            name, case = translate_chunk(chunk)
            name = name or "chunk%d" % index
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name += "#%d" % seen[name]
            case = {"name": name, **case}
            cases.append(case)
        total += len(cases)
        relative = path[len("stablehlo/tests/interpret/"):]
        runnable = [case for case in cases if "module" in case]
        if runnable:
            with open(os.path.join(seed_dir, relative.replace("/", "__")), "w") as f:
                f.write(runnable[0]["module"])
        out = os.path.join(out_dir, relative.replace("/", "__")[:-len(".mlir")] + ".json")
        with open(out, "w") as f:
            json.dump({"_source": "openxla/stablehlo %s %s (facts translated: constants as sharded "
                       "arguments, checks as results)" % (commit[:12], path), "cases": cases}, f, indent=1)
            f.write("\n")
    print("translated %d functions into %s" % (total, out_dir))


if __name__ == "__main__":
    main()
