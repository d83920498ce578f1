"""Ctrl-C during a long run: KeyboardInterrupt, every device stopped, no
thread left behind, the program usable. The run is made long by the
watchdog's test hook (SHARDGEN_TEST_STALL_DEVICE: a device that never
reaches its first collective, docs/decisions.md)."""

import os
import signal
import threading

import numpy as np
import pytest

import shardgen
from conftest import random_inputs


@pytest.fixture
def stalled_device(monkeypatch):
    monkeypatch.setenv("SHARDGEN_TEST_STALL_DEVICE", "1")


def interrupt_soon(seconds=0.3):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_interrupts_a_stalled_run(mlp, stalled_device, no_thread_left_behind, monkeypatch):
    inputs = random_inputs(mlp.inputs)
    timer = interrupt_soon()
    with pytest.raises(KeyboardInterrupt):
        mlp(*inputs)
    timer.join()
    monkeypatch.delenv("SHARDGEN_TEST_STALL_DEVICE")
    outputs = mlp.check(*inputs)
    assert outputs[0].shape == (8, 16)


def test_ctrl_c_interrupts_the_pmap_style(mlp, stalled_device, no_thread_left_behind):
    per_device = [[np.zeros(piece.shape, np.float32) for piece in
                   (layout.pieces[p] for layout in mlp.layouts.inputs)]
                  for p in range(mlp.num_devices)]
    timer = interrupt_soon()
    with pytest.raises(KeyboardInterrupt):
        mlp.run_shards(per_device)
    timer.join()


def test_a_handler_that_raises_something_else(mlp, stalled_device, no_thread_left_behind):
    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        timer = interrupt_soon()
        with pytest.raises(Stop):
            mlp(*random_inputs(mlp.inputs))
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_timeout_ends_a_stalled_run(mlp, stalled_device, no_thread_left_behind):
    with pytest.raises(TimeoutError, match="device 1 is computing"):
        mlp(*random_inputs(mlp.inputs), timeout=0.5)
