"""The bench's programs, each twice from one description: as a shardgen
graph (JSON, Megatron-style shardings on a 'model' axis) and as a PyTorch
function on the same inputs; in f32 or bf16 (every tensor of that type).

matmul:       y = x w, w column-sharded                          (x [M, K])
MLP:          y = tanh(x w1 + b1) w2 + b2                       (x [B, E])
attention:    multi-head self-attention, heads on 'model'        (x [B, S, E])
transformer:  x + attention(x) -> layer norm -> + MLP -> layer norm
"""

import numpy as np


class Graph:
    """A small builder of shardgen graphs (docs/graph-format.md)."""

    def __init__(self, name, element="f32"):
        self.name = name
        self.element = element
        self.inputs, self.ops, self.types = [], [], {}
        self.count = 0

    def input(self, name, shape, sharding):
        self.types[name] = list(shape)
        self.inputs.append({"name": name, "type": tensor(shape, self.element),
                            "sharding": sharding})
        return name

    def _fresh(self, hint):
        self.count += 1
        return f"{hint}{self.count}"

    def op(self, op, operands, shape, hint="v", **attrs):
        result = self._fresh(hint)
        entry = {"op": op, "operands": operands, "result": result}
        if op in ("broadcast_in_dim", "reshape", "transpose", "constant", "reduce"):
            entry["type"] = tensor(shape, self.element)
        entry.update(attrs)
        self.ops.append(entry)
        self.types[result] = list(shape)
        return result

    def constant(self, value):
        result = self._fresh("c")
        self.ops.append({"op": "constant", "result": result, "type": tensor([], self.element),
                         "value": value})
        self.types[result] = []
        return result

    def shape(self, value):
        return self.types[value]

    def dot(self, a, b, contract_a, contract_b, shape, batch_a=(), batch_b=()):
        attrs = {"lhs_contracting_dimensions": list(contract_a),
                 "rhs_contracting_dimensions": list(contract_b)}
        if batch_a:
            attrs["lhs_batching_dimensions"] = list(batch_a)
            attrs["rhs_batching_dimensions"] = list(batch_b)
        return self.op("dot_general", [a, b], shape, "dot", **attrs)

    def broadcast(self, value, shape, dims):
        return self.op("broadcast_in_dim", [value], shape, "bc", broadcast_dimensions=list(dims))

    def scalar_like(self, scalar, shape):
        return self.broadcast(scalar, shape, [])

    def reduce(self, value, dims, reducer, init):
        shape = [d for i, d in enumerate(self.shape(value)) if i not in dims]
        return self.op("reduce", [value, self.constant(init)], shape, "red",
                       dimensions=list(dims), reducer=reducer)

    def binary(self, op, a, b):
        return self.op(op, [a, b], self.shape(a), op[:3])

    def unary(self, op, a):
        return self.op(op, [a], self.shape(a), op[:3])

    def to_json(self, outputs, mesh_size):
        return {"format": "shardgen-graph", "version": 1, "name": self.name,
                "meshes": [{"name": "mesh", "axes": [{"name": "model", "size": mesh_size}]}],
                "inputs": self.inputs, "ops": self.ops,
                "outputs": [{"value": v, "sharding": s} for v, s in outputs]}


def tensor(shape, element="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


REPLICATED = lambda rank: "<@mesh, [" + ", ".join("{}" for _ in range(rank)) + "]>"


def sharded(rank, dim):
    dims = ["{}"] * rank
    dims[dim] = "{model}"
    return "<@mesh, [" + ", ".join(dims) + "]>"


# ---- the programs, as graphs ------------------------------------------------

def mlp_graph(g, x, e, hidden, prefix=""):
    """tanh(x w1 + b1) w2 + b2 on the last dim of x; w1 column-, w2 row-sharded."""
    lead = g.shape(x)[:-1]
    n = len(lead)
    w1 = g.input(prefix + "w1", [e, hidden], sharded(2, 1))
    b1 = g.input(prefix + "b1", [hidden], sharded(1, 0))
    w2 = g.input(prefix + "w2", [hidden, e], sharded(2, 0))
    b2 = g.input(prefix + "b2", [e], REPLICATED(1))
    h = g.dot(x, w1, [n], [0], lead + [hidden])
    h = g.binary("add", h, g.broadcast(b1, lead + [hidden], [n]))
    h = g.unary("tanh", h)
    y = g.dot(h, w2, [n], [0], lead + [e])
    return g.binary("add", y, g.broadcast(b2, lead + [e], [n]))


def attention_graph(g, x, heads, head_dim, prefix=""):
    """Self-attention over x [B, S, E], heads sharded on 'model'."""
    b, s, e = g.shape(x)
    w = {k: g.input(prefix + k, [e, heads, head_dim], sharded(3, 1)) for k in ("wq", "wk", "wv")}
    wo = g.input(prefix + "wo", [heads, head_dim, e], sharded(3, 0))
    q, k, v = (g.dot(x, w[n], [2], [0], [b, s, heads, head_dim]) for n in ("wq", "wk", "wv"))
    scores = g.dot(q, k, [3], [3], [b, heads, s, s], batch_a=[0, 2], batch_b=[0, 2])
    scale = g.scalar_like(g.constant(1.0 / np.sqrt(head_dim)), [b, heads, s, s])
    scores = g.binary("multiply", scores, scale)
    row_max = g.reduce(scores, [3], "max", "-inf")
    shifted = g.binary("subtract", scores, g.broadcast(row_max, [b, heads, s, s], [0, 1, 2]))
    exp = g.unary("exponential", shifted)
    row_sum = g.reduce(exp, [3], "add", 0.0)
    probs = g.binary("divide", exp, g.broadcast(row_sum, [b, heads, s, s], [0, 1, 2]))
    ctx = g.dot(probs, v, [3], [1], [b, heads, s, head_dim], batch_a=[0, 1], batch_b=[0, 2])
    return g.dot(ctx, wo, [1, 3], [0, 1], [b, s, e])


def layer_norm_graph(g, x, prefix):
    """Layer norm over the last dim (eps 1e-5), with gain and bias."""
    shape = g.shape(x)
    n, e = len(shape) - 1, shape[-1]
    lead = shape[:-1]
    keep = list(range(n))
    gamma = g.input(prefix + "gamma", [e], REPLICATED(1))
    beta = g.input(prefix + "beta", [e], REPLICATED(1))
    inv_e = g.scalar_like(g.constant(1.0 / e), lead)
    mean = g.binary("multiply", g.reduce(x, [n], "add", 0.0), inv_e)
    centered = g.binary("subtract", x, g.broadcast(mean, shape, keep))
    var = g.binary("multiply", g.reduce(g.binary("multiply", centered, centered), [n], "add", 0.0),
                   inv_e)
    inv_std = g.unary("rsqrt", g.binary("add", var, g.scalar_like(g.constant(1e-5), lead)))
    normed = g.binary("multiply", centered, g.broadcast(inv_std, shape, keep))
    normed = g.binary("multiply", normed, g.broadcast(gamma, shape, [n]))
    return g.binary("add", normed, g.broadcast(beta, shape, [n]))


def build(name, cfg, mesh_size, element="f32"):
    g = Graph(name, element)
    if name == "matmul":
        x = g.input("x", [cfg["m"], cfg["k"]], REPLICATED(2))
        w = g.input("w", [cfg["k"], cfg["n"]], sharded(2, 1))
        y = g.dot(x, w, [1], [0], [cfg["m"], cfg["n"]])
    elif name == "mlp":
        x = g.input("x", [cfg["batch"], cfg["embed"]], REPLICATED(2))
        y = mlp_graph(g, x, cfg["embed"], cfg["hidden"])
    else:
        x = g.input("x", [cfg["batch"], cfg["seq"], cfg["embed"]], REPLICATED(3))
        y = attention_graph(g, x, cfg["heads"], cfg["embed"] // cfg["heads"])
        if name == "transformer":
            h = layer_norm_graph(g, g.binary("add", x, y), "ln1_")
            y = layer_norm_graph(g, g.binary("add", h, mlp_graph(g, h, cfg["embed"], cfg["hidden"],
                                                                    "mlp_")), "ln2_")
    return g, g.to_json([(y, REPLICATED(len(g.shape(y))))], mesh_size)


# ---- the same programs in PyTorch ----------------------------------------------

def torch_program(name, cfg):
    import torch

    def mlp(x, w1, b1, w2, b2):
        return torch.tanh(x @ w1 + b1) @ w2 + b2

    def attention(x, wq, wk, wv, wo):
        q, k, v = (torch.einsum("bse,ehd->bhsd", x, w) for w in (wq, wk, wv))
        scores = (q @ k.transpose(-1, -2)) * (1.0 / np.sqrt(q.shape[-1]))
        probs = torch.softmax(scores, dim=-1)
        return torch.einsum("bhsd,hde->bse", probs @ v, wo)

    def layer_norm(x, gamma, beta):
        return torch.nn.functional.layer_norm(x, x.shape[-1:], gamma, beta, 1e-5)

    if name == "matmul":
        return lambda t: t["x"] @ t["w"]
    if name == "mlp":
        return lambda t: mlp(t["x"], t["w1"], t["b1"], t["w2"], t["b2"])
    if name == "attention":
        return lambda t: attention(t["x"], t["wq"], t["wk"], t["wv"], t["wo"])

    def block(t):
        x = t["x"]
        h = layer_norm(x + attention(x, t["wq"], t["wk"], t["wv"], t["wo"]),
                       t["ln1_gamma"], t["ln1_beta"])
        m = mlp(h, t["mlp_w1"], t["mlp_b1"], t["mlp_w2"], t["mlp_b2"])
        return layer_norm(h + m, t["ln2_gamma"], t["ln2_beta"])
    return block


def inputs_for(graph_json, seed=0):
    """Inputs in graph order: activations ~ N(0, 1), weights ~ N(0, 0.02),
    gains 1 + N(0, 0.02)."""
    rng = np.random.default_rng(seed)
    arrays = {}
    for spec in graph_json["inputs"]:
        shape = [int(d) for d in spec["type"][len("tensor<"):-1].split("x")[:-1]]
        scale = 1.0 if spec["name"] == "x" else 0.02
        value = rng.standard_normal(shape).astype(np.float32) * np.float32(scale)
        if spec["name"].endswith("gamma"):
            value += np.float32(1.0)
        arrays[spec["name"]] = value
    return arrays
