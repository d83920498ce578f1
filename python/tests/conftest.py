"""Shared fixtures: the source tree's samples, the tool in the build tree,
and inputs for a graph."""

import json
import os
import pathlib
import subprocess
import threading
import time

import numpy as np
import pytest

import shardgen

SOURCE_DIR = pathlib.Path(os.environ.get("SHARDGEN_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
SAMPLES = SOURCE_DIR / "samples"
BINARY_DIR = os.environ.get("SHARDGEN_BINARY_DIR")
TOOL = pathlib.Path(BINARY_DIR) / "shardgen" if BINARY_DIR else None

# Every sample graph that runs without a custom-call library.
SAMPLE_GRAPHS = sorted(SAMPLES.glob("*.json")) + sorted((SAMPLES / "mlir").glob("*.mlir"))


def random_inputs(specs, seed=0):
    """Arrays of the specs' dtypes and shapes, small values (as the tool's
    pseudo-random inputs)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in specs:
        dtype = np.dtype(spec.dtype)
        if dtype.kind == "f":
            arrays.append(rng.uniform(-1, 1, spec.shape).astype(dtype))
        elif dtype.kind == "b":
            arrays.append(rng.integers(0, 2, spec.shape).astype(dtype))
        else:
            arrays.append(rng.integers(0, 8, spec.shape).astype(dtype))
    return arrays


def doubling_bf16_graph(shape, sharding):
    """A graph doubling a bf16 tensor of `shape` sharded as `sharding` over
    a mesh x=2."""
    dims = "x".join(map(str, shape))
    return shardgen.load(json.dumps({
        "format": "shardgen-graph", "version": 1, "name": "twice",
        "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
        "inputs": [{"name": "a", "type": f"tensor<{dims}xbf16>", "sharding": sharding}],
        "ops": [{"op": "add", "operands": ["a", "a"], "result": "b"}],
        "outputs": [{"value": "b"}],
    }))


def run_tool(*args, check=True):
    """The shardgen tool of the build tree (skips the test without it)."""
    if TOOL is None or not TOOL.exists():
        pytest.skip("the shardgen tool is not in SHARDGEN_BINARY_DIR")
    result = subprocess.run([str(TOOL), *map(str, args)], capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def os_threads():
    """The threads of this process, as the kernel counts them."""
    return len(os.listdir("/proc/self/task"))


@pytest.fixture
def no_thread_left_behind():
    """Fails the test when it leaves a thread (Python's or the runtime's)."""
    python_before, os_before = threading.active_count(), os_threads()
    yield
    assert threading.active_count() == python_before
    # Thread.join() returns when the Python thread is done, a moment before
    # its OS thread has exited: wait for that moment (a thread left running
    # stays past the deadline).
    deadline = time.monotonic() + 5
    while os_threads() != os_before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert os_threads() == os_before


@pytest.fixture(scope="session")
def mlp(private_compile_cache):
    return shardgen.compile(shardgen.load(SAMPLES / "mlp.json"))


@pytest.fixture(scope="session", autouse=True)
def private_compile_cache(tmp_path_factory):
    """The session compiles into a cache of its own, not the user's."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    cache.chmod(0o700)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache))
        yield cache
