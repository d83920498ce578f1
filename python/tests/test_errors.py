"""Wrong inputs are TypeErrors that say what the program wants; bad graphs
are GraphErrors placed as the tool places them (pointer, line, column)."""

import json

import numpy as np
import pytest

import shardgen
from conftest import SAMPLES, random_inputs, run_tool


def test_wrong_dtype_names_the_input_and_what_it_wants(mlp):
    inputs = random_inputs(mlp.inputs)
    inputs[1] = inputs[1].astype(np.float64)
    with pytest.raises(TypeError) as error:
        mlp(*inputs)
    assert str(error.value) == (
        'input 1 ("w1"): got a float64 array of shape (16, 32); the program wants float32 '
        "of shape (16, 32) (tensor<16x32xf32>)"
    )


def test_wrong_shape_names_the_input_and_what_it_wants(mlp):
    inputs = random_inputs(mlp.inputs)
    inputs[2] = np.zeros((31,), np.float32)
    with pytest.raises(TypeError) as error:
        mlp(*inputs)
    assert str(error.value) == (
        'input 2 ("b1"): got a float32 array of shape (31,); the program wants float32 '
        "of shape (32,) (tensor<32xf32>)"
    )


def test_a_non_contiguous_array_is_refused_not_copied(mlp):
    inputs = random_inputs(mlp.inputs)
    inputs[3] = np.asfortranarray(inputs[3])
    with pytest.raises(TypeError, match=r'input 3 \("w2"\): .* not C-contiguous'):
        mlp(*inputs)
    inputs[3] = np.ascontiguousarray(inputs[3])
    mlp(*inputs)


def test_misaligned_memory_is_refused(mlp):
    inputs = random_inputs(mlp.inputs)
    raw = np.zeros(inputs[4].nbytes + 1, np.uint8)
    misaligned = raw[1:].view(np.float32)
    with pytest.raises(TypeError, match="not aligned"):
        mlp(*inputs[:4], misaligned)


def test_input_count_and_non_arrays(mlp):
    inputs = random_inputs(mlp.inputs)
    with pytest.raises(TypeError, match=r"mlp takes 5 inputs \(x, w1, b1, w2, b2\), got 4"):
        mlp(*inputs[:4])
    with pytest.raises(TypeError, match=r'input 4 \("b2"\): got a list, which is not an array'):
        mlp(*inputs[:4], [0.0] * 16)


def test_buffer_protocol_objects_are_taken(mlp):
    inputs = random_inputs(mlp.inputs)
    expected = mlp(*inputs)
    views = [memoryview(array) for array in inputs]
    for output, again in zip(expected, mlp(*views)):
        np.testing.assert_array_equal(output, again)


BAD_OP = {
    "format": "shardgen-graph",
    "version": 1,
    "name": "bad",
    "inputs": [{"name": "x", "type": "tensor<4xf32>"}],
    "ops": [{"op": "add", "operands": ["x", "nope"], "result": "y"}],
    "outputs": [{"value": "y"}],
}


def test_json_graph_error_fields_match_the_tool(tmp_path):
    path = tmp_path / "bad.json"
    text = json.dumps(BAD_OP, indent=2)
    path.write_text(text)
    with pytest.raises(shardgen.GraphError) as caught:
        shardgen.load(path)
    error = caught.value
    assert error.file == str(path)
    assert error.pointer == "/ops/0/operands/1"
    # The line and column of the pointed value in the text.
    lines = text.splitlines()
    assert lines[error.line - 1][error.column - 1 :].startswith('"nope"')
    assert isinstance(error, ValueError) and isinstance(error, shardgen.Error)
    tool = run_tool("check", path, check=False)
    assert tool.returncode == 1
    assert tool.stderr == str(error) + "\n"
    assert str(error) == f"{path}:/ops/0/operands/1: error: {error.message}"


def test_json_text_syntax_error_has_the_parser_line_and_column():
    with pytest.raises(shardgen.GraphError) as caught:
        shardgen.load('{\n  "format": "shardgen-graph",\n  "version": 1,\n  oops\n}')
    error = caught.value
    assert error.file == "<string>"
    assert (error.line, error.column) == (4, 3)
    assert str(error).startswith("<string>:")


def test_verification_errors_come_from_check(tmp_path):
    graph = dict(BAD_OP, ops=[{"op": "add", "operands": ["x", "x"], "result": "y",
                               "type": "tensor<5xf32>"}])
    path = tmp_path / "mistyped.json"
    path.write_text(json.dumps(graph))
    loaded = shardgen.load(path)  # reads fine
    with pytest.raises(shardgen.GraphError) as caught:
        loaded.check()
    error = caught.value
    assert error.pointer.startswith("/ops/0")
    value = graph
    for token in error.pointer.split("/")[1:]:
        value = value[int(token)] if isinstance(value, list) else value[token]
    assert error.line == 1
    assert json.dumps(graph)[error.column - 1 :].startswith(json.dumps(value))
    tool = run_tool("check", path, check=False)
    assert tool.stderr == str(caught.value) + "\n"
    with pytest.raises(shardgen.GraphError):
        shardgen.compile(loaded)


MLIR_ERROR = """module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %undefined : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def test_mlir_graph_error_fields_match_the_tool(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text(MLIR_ERROR)
    with pytest.raises(shardgen.GraphError) as caught:
        shardgen.load(path)
    error = caught.value
    assert error.file == str(path)
    assert error.line == 4 and error.column is not None
    assert str(error).startswith(f"{path}:4:{error.column}: error: ")
    tool = run_tool("check", path, check=False)
    assert tool.returncode == 1
    assert tool.stderr == str(error) + "\n"


def test_missing_file_and_bad_arguments(tmp_path):
    with pytest.raises(FileNotFoundError):
        shardgen.load(tmp_path / "absent.json")
    graph = shardgen.load(SAMPLES / "mlp.json")
    with pytest.raises(ValueError, match='no mesh of the graph has an axis "batch"'):
        shardgen.compile(graph, mesh={"batch": 2})
    with pytest.raises(ValueError, match="unknown strategy"):
        graph.propagate(strategy="fastest")
    with pytest.raises(ValueError, match="backend 'mpi' runs a program under mpirun"):
        shardgen.compile(graph, backend="mpi")
    with pytest.raises(TypeError):
        shardgen.load(42)


def test_memory_limit_refuses_before_running():
    graph = shardgen.load(SAMPLES / "mlp.json")
    with pytest.raises(shardgen.GraphError, match="does not fit in memory") as caught:
        shardgen.compile(graph, max_memory="1K")
    assert caught.value.pointer.startswith("/")
    with pytest.raises(shardgen.GraphError, match="does not fit in memory"):
        shardgen.eval(graph, *random_inputs(graph.inputs), max_memory=100)
