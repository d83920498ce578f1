"""Both calling styles on every sample, against the reference interpreter."""

import numpy as np
import pytest

import shardgen
from conftest import SAMPLE_GRAPHS, random_inputs


def box(offset, shape):
    return tuple(slice(o, o + s) for o, s in zip(offset, shape))


def pieces_of(array, layout):
    """Each position's piece of a global array, as the layout places it."""
    pieces = []
    for piece in layout.pieces:
        if layout.distribution is None:
            pieces.append(np.ascontiguousarray(array[box(piece.offset, piece.shape)]))
            continue
        local = np.zeros(piece.shape, array.dtype)  # [k, *shard]: edge chunks padded
        for slot, (offset, extent) in enumerate(piece.chunks):
            local[(slot,) + box((0,) * len(extent), extent)] = array[box(offset, extent)]
        pieces.append(local)
    return pieces


def assert_piece_matches(piece_array, array, layout, piece):
    assert piece_array.shape == tuple(piece.shape)
    assert piece_array.dtype == layout.dtype
    if layout.distribution is None:
        np.testing.assert_array_equal(piece_array, array[box(piece.offset, piece.shape)])
        return
    for slot, (offset, extent) in enumerate(piece.chunks):
        np.testing.assert_array_equal(
            piece_array[(slot,) + box((0,) * len(extent), extent)], array[box(offset, extent)]
        )


@pytest.mark.parametrize("path", SAMPLE_GRAPHS, ids=lambda p: p.name)
def test_global_style_agrees_with_eval(path):
    graph = shardgen.load(path)
    prog = shardgen.compile(graph)
    inputs = random_inputs(prog.inputs)
    outputs = prog(*inputs)
    reference = shardgen.eval(graph, *inputs)
    assert isinstance(outputs, tuple) and len(outputs) == len(reference)
    for output, expected, spec in zip(outputs, reference, prog.outputs):
        assert isinstance(output, np.ndarray) and output.flags.owndata
        assert output.dtype == spec.dtype and output.shape == spec.shape
        assert expected.dtype == spec.dtype and expected.shape == spec.shape
    # Within the interpreter's error bounds (bit-exact where the computation
    # is the same), as `run --check`.
    checked = prog.check(*inputs)
    for output, again in zip(outputs, checked):
        np.testing.assert_array_equal(output, again)


@pytest.mark.parametrize("path", SAMPLE_GRAPHS, ids=lambda p: p.name)
def test_pmap_style_gives_each_device_its_pieces(path):
    graph = shardgen.load(path)
    prog = shardgen.compile(graph)
    inputs = random_inputs(prog.inputs, seed=1)
    layouts = prog.layouts
    assert [layout.name for layout in layouts.inputs] == [spec.name for spec in prog.inputs]
    per_input = [pieces_of(array, layout) for array, layout in zip(inputs, layouts.inputs)]
    per_device = [[pieces[p] for pieces in per_input] for p in range(prog.num_devices)]
    shards = prog.run_shards(per_device)
    assert len(shards) == prog.num_devices
    # The pieces are those of the global outputs (the same device code), which
    # agree with the interpreter.
    outputs = prog.check(*inputs)
    for j, (output, layout) in enumerate(zip(outputs, layouts.outputs)):
        assert layout.partial_axes == ()  # no sample returns an unreduced output
        for p, piece in enumerate(layout.pieces):
            assert piece.position == p and piece.device == prog.device_ids[p]
            assert_piece_matches(shards[p][j], output, layout, piece)


def test_nx_sample_inputs_give_the_tool_numbers(tmp_path):
    # The Nx sharding seed's own inputs, as `shardgen run --inputs` takes them.
    from conftest import SAMPLES, run_tool

    inputs = [np.load(SAMPLES / "nx_sharding.inputs" / f"arg{i}.npy") for i in range(2)]
    prog = shardgen.compile(shardgen.load(SAMPLES / "nx_sharding.json"))
    (output,) = prog(*inputs)
    run_tool("run", SAMPLES / "nx_sharding.json", "--inputs", *(
        SAMPLES / "nx_sharding.inputs" / f"arg{i}.npy" for i in range(2)), "-o", tmp_path / "out")
    np.testing.assert_array_equal(output, np.load(tmp_path / "out" / "out0.npy"))
