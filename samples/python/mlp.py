#!/usr/bin/python3
"""The README's Python example: the two-layer MLP of samples/mlir/mlp.mlir
(as JAX prints it), compiled for a 2 x 2 mesh and called on numpy arrays in
both calling styles, checked against numpy and shardgen's reference
interpreter. Run from the checkout: /usr/bin/python3 samples/python/mlp.py
(with the module installed, or PYTHONPATH=build/python)."""

import pathlib
import sys

import numpy as np

import shardgen

samples = pathlib.Path(__file__).resolve().parents[1]
graph = shardgen.load(samples / "mlir" / "mlp.mlir")
print(graph.show())  # which device holds which block of each input and output

prog = shardgen.compile(graph, mesh={"data": 2, "model": 2})
rng = np.random.default_rng(0)
x, w1, b1, w2, b2 = (rng.standard_normal(spec.shape, dtype=np.float32) for spec in prog.inputs)

# The global style: whole arrays in (taken without a copy), numpy arrays out.
(y,) = prog(x, w1, b1, w2, b2)
expected = np.tanh(x @ w1 + b1) @ w2 + b2
np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)

# The reference interpreter, and its element-wise error bounds (run --check).
(y_ref,) = shardgen.eval(graph, x, w1, b1, w2, b2)
np.testing.assert_allclose(y, y_ref, rtol=1e-5, atol=1e-5)
prog.check(x, w1, b1, w2, b2)  # raises shardgen.CheckError past a bound

# The pmap style: each device gets exactly its piece of each input.
inputs = (x, w1, b1, w2, b2)
per_device = [
    [array[tuple(slice(o, o + s) for o, s in zip(layout.pieces[p].offset, layout.pieces[p].shape))]
     .copy() for array, layout in zip(inputs, prog.layouts.inputs)]
    for p in range(prog.num_devices)
]
shards = prog.run_shards(per_device)
for p, piece in enumerate(prog.layouts.outputs[0].pieces):
    rows = slice(piece.offset[0], piece.offset[0] + piece.shape[0])
    np.testing.assert_array_equal(shards[p][0], y[rows])
    print(f"device {piece.device}: rows {rows.start}:{rows.stop} of y")

print(prog.report_text(), end="")  # the collectives: one all_reduce over "model"
print("ok: y agrees with numpy and the reference interpreter on", prog.num_devices, "devices")
sys.exit(0)
