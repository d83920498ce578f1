"""shardgen from Python: compile a sharded tensor program once, call it on arrays.

    import numpy as np, shardgen
    graph = shardgen.load("samples/mlir/mlp.mlir")
    prog = shardgen.compile(graph, mesh={"data": 2, "model": 2})
    (y,) = prog(x, w1, b1, w2, b2)           # numpy (or DLPack) arrays in, numpy out
    (y_ref,) = shardgen.eval(graph, x, w1, b1, w2, b2)

Inputs are taken without a copy: C-contiguous, aligned, of exactly the
dtype and shape the graph gives (a TypeError says what it wants otherwise).
bf16 tensors are ml_dtypes.bfloat16 arrays when ml_dtypes can be imported,
else uint16 arrays of the bit patterns (BFLOAT16 says which). See the README's
"Python" section.
"""

from ._shardgen import (  # noqa: F401
    CheckError,
    Error,
    Graph,
    GraphError,
    InternalError,
    Program,
    compile,
    eval,
    load,
)
from ._types import Layout, Layouts, Piece, Sharding, Show, TensorSpec  # noqa: F401

try:
    import ml_dtypes as _ml_dtypes

    BFLOAT16 = _ml_dtypes.bfloat16
    """The numpy dtype of bf16 tensors: ml_dtypes.bfloat16, or numpy.uint16."""
except ImportError:
    import numpy as _numpy

    BFLOAT16 = _numpy.uint16

__version__ = "0.1.0"

__all__ = [
    "BFLOAT16",
    "CheckError",
    "Error",
    "Graph",
    "GraphError",
    "InternalError",
    "Layout",
    "Layouts",
    "Piece",
    "Program",
    "Sharding",
    "Show",
    "TensorSpec",
    "compile",
    "eval",
    "load",
]
