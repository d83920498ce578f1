"""The GIL is released while a program runs: Python threads call programs
at the same time, each getting its own results."""

import threading

import numpy as np

import shardgen
from conftest import SAMPLES, random_inputs


def call_at_once(calls):
    """Runs each (program, inputs, expected outputs) 200 times, all on
    threads of their own started together; the failures, in this thread."""
    start = threading.Barrier(len(calls))
    failures = []

    def repeat(prog, inputs, expected):
        try:
            start.wait()
            for _ in range(200):
                for output, want in zip(prog(*inputs), expected):
                    np.testing.assert_array_equal(output, want)
        except Exception as error:  # reported by the test
            failures.append(error)

    threads = [threading.Thread(target=repeat, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_two_threads_call_two_programs_at_once(no_thread_left_behind):
    programs = [shardgen.compile(shardgen.load(SAMPLES / name))
                for name in ("mlp.json", "attention.json")]
    inputs = [random_inputs(prog.inputs, seed=k) for k, prog in enumerate(programs)]
    expected = [prog(*args) for prog, args in zip(programs, inputs)]
    assert call_at_once(list(zip(programs, inputs, expected))) == []


def test_one_program_from_two_threads(mlp):
    inputs = [random_inputs(mlp.inputs, seed=k) for k in range(2)]
    assert call_at_once([(mlp, args, mlp(*args)) for args in inputs]) == []


def test_other_threads_run_python_while_a_program_runs(monkeypatch):
    # A run held up by the test hook (device 1 never arrives) until its
    # timeout; meanwhile this thread compiles and calls a one-device program
    # (no position 1 to stall), which needs the GIL the run must not hold.
    monkeypatch.setenv("SHARDGEN_TEST_STALL_DEVICE", "1")
    graph = shardgen.load(SAMPLES / "mlp.json")
    stalled = shardgen.compile(graph)
    single = shardgen.compile(graph, mesh={"data": 1, "model": 1})
    inputs = random_inputs(stalled.inputs)
    errors = []

    def stalled_call():
        try:
            stalled(*inputs, timeout=3)
        except TimeoutError as error:
            errors.append(error)

    thread = threading.Thread(target=stalled_call)
    thread.start()
    for _ in range(5):
        single(*inputs)
    assert thread.is_alive()  # the stalled run has not returned meanwhile
    thread.join()
    assert len(errors) == 1
