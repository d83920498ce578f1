"""The plain data shardgen's objects hand out (made by the extension)."""

from typing import NamedTuple, Optional, Tuple


class Sharding(NamedTuple):
    """A value's sharding (Shardy's text, or a distribution's) and origin."""

    sharding: str
    origin: Optional[str]


class TensorSpec(NamedTuple):
    """A graph input or output: its name, numpy dtype, shape and MLIR type."""

    name: str
    dtype: object
    shape: Tuple[int, ...]
    type: str


class Piece(NamedTuple):
    """One device's piece of a tensor.

    position: its mesh position (what run_shards indexes by); device: its id.
    offset, shape: the piece's box in the global tensor. For a distributed
    tensor, shape is the device's local buffer [k, *shard_shape] (offset all
    0) and chunks gives each of its k chunks' (offset, extent) in the
    global tensor (edge chunks clipped); otherwise chunks is empty.
    """

    position: int
    device: int
    offset: Tuple[int, ...]
    shape: Tuple[int, ...]
    chunks: Tuple[Tuple[Tuple[int, ...], Tuple[int, ...]], ...]


class Layout(NamedTuple):
    """How an input or output is split over the mesh.

    sharding is Shardy's text, or None for a distributed tensor, whose
    distribution is then set. partial_axes: an unreduced output's pieces
    are partial values still to be reduced over these axes. pieces: one
    Piece per mesh position.
    """

    name: str
    dtype: object
    shape: Tuple[int, ...]
    type: str
    mesh: str
    sharding: Optional[str]
    distribution: Optional[str]
    partial_axes: Tuple[str, ...]
    pieces: Tuple[Piece, ...]


class Layouts(NamedTuple):
    """A program's input and output layouts, in order."""

    inputs: list
    outputs: list


class Show:
    """What `shardgen show` draws: text in a terminal, a page in Jupyter."""

    def __init__(self, text: str, html: str):
        self.text = text
        self.html = html

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return self.html

    def save(self, path) -> None:
        """Writes the page (what `shardgen show --html FILE` writes)."""
        with open(path, "w", encoding="utf-8") as file:
            file.write(self.html)
