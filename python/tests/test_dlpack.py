"""Tensors of other libraries through DLPack: any object with __dlpack__
on the CPU, a PyTorch CPU tensor among them (those tests are skipped when
torch cannot be imported), is taken without a copy."""

import numpy as np
import pytest

import shardgen
from conftest import doubling_bf16_graph, random_inputs

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="torch cannot be imported")


class DLPackOnly:
    """An array offering DLPack and nothing else (no buffer protocol)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_any_dlpack_exporter_is_an_input(mlp):
    arrays = random_inputs(mlp.inputs)
    expected = mlp(*arrays)
    for output, again in zip(expected, mlp(*map(DLPackOnly, arrays))):
        np.testing.assert_array_equal(output, again)
    wrong = [DLPackOnly(array) for array in arrays]
    wrong[0] = DLPackOnly(arrays[0].astype(np.float64))
    with pytest.raises(TypeError, match=r'input 0 \("x"\): got a test_dlpack.DLPackOnly \(DLPack float64, '
                       r"shape \(8, 16\)\); the program wants float32 of shape \(8, 16\)"):
        mlp(*wrong)
    wrong[0] = DLPackOnly(np.ascontiguousarray(arrays[0].T).T)
    with pytest.raises(TypeError, match="not contiguous"):
        mlp(*wrong)


@needs_torch
def test_torch_cpu_tensors_are_inputs(mlp):
    arrays = random_inputs(mlp.inputs)
    tensors = [torch.from_numpy(array.copy()) for array in arrays]
    expected = mlp(*arrays)
    for output, again in zip(expected, mlp(*tensors)):
        assert isinstance(again, np.ndarray)
        np.testing.assert_array_equal(output, again)


@needs_torch
def test_torch_tensors_of_the_wrong_kind_are_type_errors(mlp):
    tensors = [torch.from_numpy(array) for array in random_inputs(mlp.inputs)]
    wrong = list(tensors)
    wrong[1] = tensors[1].double()
    with pytest.raises(TypeError, match=r'input 1 \("w1"\): got a torch.Tensor \(DLPack float64'):
        mlp(*wrong)
    wrong[1] = tensors[1].t().contiguous().t()  # a transposed view: strides not row-major
    with pytest.raises(TypeError, match="not contiguous"):
        mlp(*wrong)


@needs_torch
def test_a_bf16_torch_tensor_is_a_bf16_input():
    graph = doubling_bf16_graph((4, 2), "<@mesh, [{x}, {}]>")
    prog = shardgen.compile(graph)
    values = torch.arange(8, dtype=torch.float32).reshape(4, 2).to(torch.bfloat16)
    (doubled,) = prog(values)
    assert doubled.dtype == shardgen.BFLOAT16
    expected = (values * 2).view(torch.int16).numpy().view(np.uint16)
    np.testing.assert_array_equal(doubled.view(np.uint16), expected)
