"""custom_call targets as Python functions (or a shared library, as the
tool's --custom-calls); a function that raises, or a failing device, raises
in the caller and leaves the program usable."""

import shutil
import subprocess
import threading

import numpy as np
import pytest

import shardgen
from conftest import SAMPLES, os_threads, random_inputs

RMS_NORM_MLP = SAMPLES / "custom_call" / "rms_norm_mlp.json"


def rms_norm(x):
    """samples/custom_call/rms_norm.c in numpy: each row over its RMS."""
    rms = np.sqrt((x.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-6)
    return (x * (1.0 / rms).astype(np.float32)).astype(np.float32)


def test_a_python_function_as_a_partitioned_custom_call():
    graph = shardgen.load(RMS_NORM_MLP)
    shapes = []

    def recording_rms_norm(x):
        shapes.append(x.shape)
        return rms_norm(x)

    prog = shardgen.compile(graph, custom_calls={"rms_norm": recording_rms_norm})
    inputs = random_inputs(prog.inputs)
    outputs = prog.check(*inputs)  # against the interpreter calling the same function
    (reference,) = shardgen.eval(graph, *inputs, custom_calls={"rms_norm": rms_norm})
    np.testing.assert_allclose(outputs[0], reference, rtol=1e-5, atol=1e-5)
    # Called per device on its local rows (batch on "data": 2 of 4 devices' rows).
    assert (4, 32) in shapes


def test_a_missing_target_is_a_graph_error():
    graph = shardgen.load(RMS_NORM_MLP)
    with pytest.raises(shardgen.GraphError) as caught:
        shardgen.compile(graph)
    assert caught.value.pointer == "/ops/1/call_target_name"
    assert "custom_calls=" in str(caught.value)
    with pytest.raises(shardgen.GraphError, match="none of the functions given has its name"):
        shardgen.compile(graph, custom_calls={"other": rms_norm})


def failing_call_then_usable(fails, error_type, message):
    """A program whose rms_norm is rms_norm except when fails() says so:
    its first call raises error_type(message) in the caller; with fails()
    false again, the same program agrees with the interpreter."""
    graph = shardgen.load(RMS_NORM_MLP)
    state = {"failing": True}

    def sometimes_failing(x):
        if state["failing"] and fails():
            raise error_type(message)
        return rms_norm(x)

    prog = shardgen.compile(graph, custom_calls={"rms_norm": sometimes_failing})
    inputs = random_inputs(prog.inputs)
    with pytest.raises(error_type, match=message):
        prog(*inputs)
    state["failing"] = False
    before = os_threads()
    (again,) = prog.check(*inputs)  # the program, and the process, go on
    assert os_threads() == before
    (reference,) = shardgen.eval(graph, *inputs, custom_calls={"rms_norm": rms_norm})
    np.testing.assert_allclose(again, reference, rtol=1e-5, atol=1e-5)


def test_a_raising_custom_call_raises_in_the_caller(no_thread_left_behind):
    failing_call_then_usable(lambda: True, ValueError, "rms_norm: no")


def test_one_failing_device_stops_the_others(no_thread_left_behind):
    # Only the second call fails: one device, while the others go on.
    calls = []
    lock = threading.Lock()

    def second_call():
        with lock:
            calls.append(1)
            return len(calls) == 2

    failing_call_then_usable(second_call, RuntimeError, "device down")


def test_a_result_of_the_wrong_shape_is_a_type_error():
    graph = shardgen.load(RMS_NORM_MLP)
    prog = shardgen.compile(graph, custom_calls={"rms_norm": lambda x: x[:, :3]})
    with pytest.raises(TypeError, match='custom_call target "rms_norm", result 0: got a float32 array'):
        prog(*random_inputs(prog.inputs))


def test_check_raises_with_the_worst_element():
    # A target that returns something else on every call: the compiled run
    # and the interpreter disagree. (What follows a custom call has no
    # computed bound, the function being unknown: atol gives one.)
    graph = shardgen.load(RMS_NORM_MLP)
    counter = {"n": 0}

    def drifting(x):
        counter["n"] += 1
        return (rms_norm(x) + counter["n"]).astype(np.float32)

    prog = shardgen.compile(graph, custom_calls={"rms_norm": drifting})
    with pytest.raises(shardgen.CheckError) as caught:
        prog.check(*random_inputs(prog.inputs), atol=1e-3)
    error = caught.value
    assert isinstance(error, AssertionError)
    assert error.output == 0 and error.name == "y"
    assert len(error.index) == 2 and error.differing > 1
    assert "check failed: output 0 (y) differs at index" in str(error)
    assert f"the worst of {error.differing} differing elements" in str(error)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_shared_library_as_the_tool_takes_it(tmp_path):
    library = tmp_path / "librms_norm.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-I", SAMPLES.parent / "runtime" / "include",
                    SAMPLES / "custom_call" / "rms_norm.c", "-o", library, "-lm"], check=True)
    graph = shardgen.load(RMS_NORM_MLP)
    prog = shardgen.compile(graph, custom_calls=str(library))
    prog.check(*random_inputs(prog.inputs))
    with pytest.raises(OSError, match="cannot load the custom-call library"):
        shardgen.compile(graph, custom_calls=str(tmp_path / "absent.so"))
