"""The graph's methods are the tool's commands: propagate, explain, show,
export; a program's layouts, report and sources are what the tool prints
and writes."""

import json

import numpy as np
import pytest

import shardgen
from conftest import SAMPLES, doubling_bf16_graph, random_inputs, run_tool


def test_load_takes_paths_and_text():
    from_path = shardgen.load(SAMPLES / "mlp.json")
    from_text = shardgen.load((SAMPLES / "mlp.json").read_text())
    from_bytes = shardgen.load((SAMPLES / "mlp.json").read_bytes())
    mlir = shardgen.load(str(SAMPLES / "mlir" / "mlp.mlir"))
    assert from_path.source == str(SAMPLES / "mlp.json") and from_text.source == "<string>"
    assert from_path.to_json() == from_text.to_json() == from_bytes.to_json()
    assert from_path.check() == {"inputs": 5, "ops": 7, "outputs": 1, "meshes": 1}
    assert len(mlir.inputs) == 5 and mlir.inputs[0].dtype == np.float32
    assert repr(from_path).startswith("<shardgen.Graph 'mlp'")


def test_propagate_gives_every_value_a_sharding_as_the_tool_writes(tmp_path):
    graph = shardgen.load(SAMPLES / "mlp.json")
    propagated = graph.propagate()
    run_tool("propagate", SAMPLES / "mlp.json", "-o", tmp_path / "p.json")
    assert propagated.to_json() == (tmp_path / "p.json").read_text()
    shardings = propagated.shardings
    assert shardings["x"] == shardgen.Sharding('<@mesh, [{"data"}, {}]>', "user:/inputs/0/sharding")
    assert shardings["h"].sharding == '<@mesh, [{"data"}, {"model"}]>'
    assert shardings["h"].origin.startswith("op:/ops/")
    assert set(shardings) >= {"x", "w1", "b1", "w2", "b2", "h0", "h1", "h", "y0", "y"}
    assert propagated.output_shardings[0].sharding == '<@mesh, [{"data"}, {}]>'
    # Before propagation only the user's annotations are there.
    assert "h" not in graph.shardings and graph.shardings["x"].origin is None
    basic = graph.propagate(strategy="basic")
    assert basic.shardings.keys() == shardings.keys()


def test_explain_is_what_the_tool_prints():
    graph = shardgen.load(SAMPLES / "mlp.json")
    assert graph.explain("h") == run_tool("explain", SAMPLES / "mlp.json", "h").stdout
    with pytest.raises(shardgen.GraphError):
        graph.explain("nothing")


def test_show_is_text_and_the_html_page(tmp_path):
    graph = shardgen.load(SAMPLES / "mlp.json")
    shown = graph.show()
    assert str(shown) == run_tool("show", SAMPLES / "mlp.json").stdout  # not a terminal: no colour
    run_tool("show", SAMPLES / "mlp.json", "--html", tmp_path / "mlp.html")
    assert shown._repr_html_() == (tmp_path / "mlp.html").read_text()
    assert "input 0" in repr(shown) and shown.html.startswith("<!DOCTYPE html>")
    assert str(graph.show("h")) == run_tool("show", SAMPLES / "mlp.json", "h").stdout


def test_export_and_import_are_what_the_tool_writes(tmp_path):
    graph = shardgen.load(SAMPLES / "mlp.json")
    assert graph.export_mlir() == run_tool("export", SAMPLES / "mlp.json").stdout
    generic = graph.export_mlir(generic=True)
    assert generic == run_tool("export", SAMPLES / "mlp.json", "--generic").stdout
    (tmp_path / "mlp.mlir").write_text(graph.export_mlir())
    imported = shardgen.load(graph.export_mlir())  # MLIR text, recognized as such
    assert imported.to_json() == run_tool("import", tmp_path / "mlp.mlir").stdout


def test_layouts_describe_every_piece():
    prog = shardgen.compile(shardgen.load(SAMPLES / "mlp.json"))
    x = prog.layouts.inputs[0]
    assert x.name == "x" and x.shape == (8, 16) and x.type == "tensor<8x16xf32>"
    assert x.sharding == '<@mesh, [{"data"}, {}]>' and x.distribution is None
    assert x.mesh == "@mesh [data=2, model=2]"
    assert [(p.offset, p.shape) for p in x.pieces] == [
        ((0, 0), (4, 16)), ((0, 0), (4, 16)), ((4, 0), (4, 16)), ((4, 0), (4, 16))]
    assert prog.mesh == {"data": 2, "model": 2} and prog.device_ids == [0, 1, 2, 3]
    nd = shardgen.compile(shardgen.load(SAMPLES / "nd_3x7x5.json")).layouts.inputs[0]
    assert nd.sharding is None and "shard_shape" in nd.distribution
    assert all(len(p.chunks) == p.shape[0] for p in nd.pieces)


def test_report_is_the_manifest(tmp_path):
    prog = shardgen.compile(shardgen.load(SAMPLES / "mlp.json"))
    report = prog.report()
    assert [entry["kind"] for entry in report] == ["all_reduce"]
    assert report[0]["op"] == "/ops/4" and report[0]["axes"] == ['{"model"}']
    assert len(report[0]["sent"]) == 4 and all(b > 0 for b in report[0]["sent"])
    tool = run_tool("run", SAMPLES / "mlp.json", "--report", "-o", tmp_path / "out")
    assert prog.report_text() == tool.stdout


def test_write_sources_is_what_compile_writes(tmp_path):
    prog = shardgen.compile(shardgen.load(SAMPLES / "mlp.json"))
    prog.write_sources(tmp_path / "py")
    run_tool("compile", SAMPLES / "mlp.json", "-o", tmp_path / "tool")
    written = sorted(p.relative_to(tmp_path / "py") for p in (tmp_path / "py").rglob("*"))
    assert written == sorted(p.relative_to(tmp_path / "tool") for p in (tmp_path / "tool").rglob("*"))
    for path in written:
        if (tmp_path / "py" / path).is_file():
            assert (tmp_path / "py" / path).read_bytes() == (tmp_path / "tool" / path).read_bytes()
    prog.write_sources(tmp_path / "mpi", name="mlp_mpi", backend="mpi")
    assert (tmp_path / "mpi" / "mlp_mpi_mpi.cpp").exists()
    with pytest.raises(ValueError, match="not a usable C\\+\\+ name"):
        prog.write_sources(tmp_path / "bad", name="1x")


def test_the_compile_cache_is_the_tools(private_compile_cache):
    graph = shardgen.load(SAMPLES / "attention_heads.json")
    cache = private_compile_cache / "shardgen"
    before = set(cache.iterdir()) if cache.exists() else set()
    prog = shardgen.compile(graph)
    objects = set(cache.iterdir()) - before
    assert objects and all(path.suffix == ".obj" for path in objects)
    again = shardgen.compile(graph)  # a hit: nothing new
    assert set(cache.iterdir()) - before == objects
    inputs = random_inputs(prog.inputs)
    np.testing.assert_array_equal(prog(*inputs)[0], again(*inputs)[0])
    uncached = shardgen.compile(shardgen.load(SAMPLES / "nd_channels.json"), cache=False)
    assert set(cache.iterdir()) - before == objects
    assert uncached.timings.keys() >= {"propagate", "partition", "generate", "JIT"}


def test_an_unfit_or_damaged_cache_is_said_as_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache = tmp_path / "shardgen"
    cache.mkdir(mode=0o700)
    cache.chmod(0o777)  # others may plant objects: not used
    graph = shardgen.load(SAMPLES / "mlp.json")
    with pytest.warns(RuntimeWarning, match="others may write to it"):
        shardgen.compile(graph)
    assert not any(cache.iterdir())
    cache.chmod(0o700)
    fresh = shardgen.compile(graph)
    entries = [path for path in cache.iterdir() if path.suffix == ".obj"]
    assert entries
    for entry in entries:
        entry.write_bytes(b"not an entry")
    with pytest.warns(RuntimeWarning, match="is damaged"):
        prog = shardgen.compile(graph)
    assert not any(path.read_bytes() == b"not an entry" for path in cache.iterdir())
    inputs = random_inputs(prog.inputs)
    np.testing.assert_array_equal(prog(*inputs)[0], fresh(*inputs)[0])


def test_bf16_travels_as_the_documented_dtype():
    graph = doubling_bf16_graph((4,), "<@mesh, [{x}]>")
    prog = shardgen.compile(graph)
    assert prog.inputs[0].dtype == shardgen.BFLOAT16
    one_two = np.array([0x3F80, 0x4000, 0x3F80, 0x4000], np.uint16)  # 1.0, 2.0 as bf16
    (doubled,) = prog(one_two.view(shardgen.BFLOAT16))
    np.testing.assert_array_equal(doubled.view(np.uint16), [0x4000, 0x4080, 0x4000, 0x4080])
    (reference,) = shardgen.eval(graph, one_two)  # uint16 bit patterns are always taken
    np.testing.assert_array_equal(reference.view(np.uint16), doubled.view(np.uint16))


@pytest.mark.parametrize("element, dtype", [("i16", np.int16), ("ui16", np.uint16),
                                            ("ui64", np.uint64)])
def test_16_and_64_bit_integers_are_numpys(element, dtype):
    graph = shardgen.load(json.dumps({
        "format": "shardgen-graph", "version": 1, "name": "wrap",
        "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
        "inputs": [{"name": "a", "type": f"tensor<4x{element}>", "sharding": "<@mesh, [{x}]>"}],
        "ops": [{"op": "add", "operands": ["a", "a"], "result": "b"}],
        "outputs": [{"value": "b"}],
    }))
    prog = shardgen.compile(graph)
    assert prog.inputs[0].dtype == dtype
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, 3, info.max // 2 + 1], dtype)
    (doubled,) = prog(a)
    assert doubled.dtype == dtype
    np.testing.assert_array_equal(doubled, a + a)  # numpy wraps as StableHLO does


@pytest.mark.parametrize("element, dtype", [("complex<f32>", np.complex64),
                                            ("complex<f64>", np.complex128)])
def test_complex_types_are_numpys(element, dtype):
    graph = shardgen.load(json.dumps({
        "format": "shardgen-graph", "version": 1, "name": "rotate",
        "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
        "inputs": [{"name": "a", "type": f"tensor<4x{element}>", "sharding": "<@mesh, [{x}]>"}],
        "ops": [{"op": "constant", "value": [0, 1], "type": f"tensor<4x{element}>", "result": "i"},
                {"op": "multiply", "operands": ["a", "i"], "result": "b"},
                {"op": "abs", "operands": ["b"], "result": "m"}],
        "outputs": [{"value": "b"}, {"value": "m"}],
    }))
    prog = shardgen.compile(graph)
    assert prog.inputs[0].dtype == dtype
    a = np.array([1 + 2j, -3j, 0.5, -1 - 1j], dtype)
    rotated, modulus = prog(a)
    assert rotated.dtype == dtype and modulus.dtype == np.abs(a).dtype
    np.testing.assert_array_equal(rotated, a * 1j)  # exact: each product has a zero part
    np.testing.assert_allclose(modulus, np.abs(a), rtol=1e-6)
    reference, _ = shardgen.eval(graph, a)
    np.testing.assert_array_equal(reference, rotated)


def test_with_mesh_is_the_tools_mesh_option():
    graph = shardgen.load(SAMPLES / "mlp.json")
    prog = shardgen.compile(graph, mesh={"data": 4, "model": 1})
    assert prog.num_devices == 4 and prog.mesh == {"data": 4, "model": 1}
    assert graph.with_mesh({"data": 1}).check()["inputs"] == 5
    prog.check(*random_inputs(prog.inputs))
