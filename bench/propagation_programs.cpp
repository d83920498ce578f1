#include "bench/propagation_programs.h"

namespace shardgen {

namespace {

constexpr int64_t kTokens = 256, kModel = 512, kHeads = 8, kHeadDim = 64, kHidden = 2048;

class LayerStackBuilder {
public:
  LayerStackBuilder() {
    Mesh mesh;
    mesh.name = "mesh";
    mesh.axes = {{"data", 4}, {"model", 2}};
    graph_.meshes.push_back(mesh);
  }

  Graph build(int64_t layers) {
    ValueId x = input("x", {kTokens, kModel}, "data", "");
    ValueId wq = input("wq", {kModel, kModel}, "", "model");
    ValueId wk = input("wk", {kModel, kModel}, "", "model");
    ValueId wv = input("wv", {kModel, kModel}, "", "model");
    ValueId wo = input("wo", {kModel, kModel}, "model", "");
    ValueId w1 = input("w1", {kModel, kHidden}, "", "model");
    ValueId w2 = input("w2", {kHidden, kModel}, "model", "");
    ValueId zero = input("zero", {}, "", "");
    for (int64_t layer = 0; layer < layers; ++layer) {
      ValueId q = heads(matmul(x, wq, {kTokens, kModel}));
      ValueId k = heads(matmul(x, wk, {kTokens, kModel}));
      ValueId v = heads(matmul(x, wv, {kTokens, kModel}));
      ValueId scores = batchedDot(q, k, 2, 2, {kHeads, kTokens, kTokens});
      ValueId probs = unary(OpKind::Exponential, scores);
      ValueId sums = reduce(probs, zero);
      ValueId spread = broadcast(sums, {kHeads, kTokens, kTokens});
      ValueId weights = binary(OpKind::Divide, probs, spread);
      ValueId attended = batchedDot(weights, v, 2, 1, {kHeads, kTokens, kHeadDim});
      ValueId merged =
          reshape(transpose(attended, {1, 0, 2}, {kTokens, kHeads, kHeadDim}), {kTokens, kModel});
      ValueId residual = binary(OpKind::Add, x, matmul(merged, wo, {kTokens, kModel}));
      ValueId hidden = unary(OpKind::Tanh, matmul(residual, w1, {kTokens, kHidden}));
      x = binary(OpKind::Add, residual, matmul(hidden, w2, {kTokens, kModel}));
    }
    RegionResult output;
    output.value = x;
    output.pointer = "/outputs/0";
    graph_.main.results.push_back(output);
    graph_.linkDefinitions();
    return std::move(graph_);
  }

private:
  TensorType f32(Shape shape) { return TensorType{ElementType::F32, std::move(shape)}; }

  ValueId input(const std::string &name, const Shape &shape, const std::string &dim0,
                const std::string &dim1) {
    std::string pointer = "/inputs/" + std::to_string(graph_.main.args.size());
    ValueId value = graph_.addValue(name, f32(shape));
    RegionArgument arg;
    arg.value = value;
    arg.pointer = pointer;
    if (!shape.empty() && (!dim0.empty() || !dim1.empty())) {
      TensorSharding sharding = TensorSharding::replicatedOn("mesh", 2, /*closed=*/false);
      if (!dim0.empty())
        sharding.dims[0].axes.push_back(AxisRef::full(dim0));
      if (!dim1.empty())
        sharding.dims[1].axes.push_back(AxisRef::full(dim1));
      arg.sharding = sharding;
    }
    graph_.main.args.push_back(arg);
    return value;
  }

  ValueId op(OpKind kind, std::vector<ValueId> operands, Shape shape, Attributes attrs) {
    Op op;
    op.kind = kind;
    op.pointer = "/ops/" + std::to_string(graph_.main.ops.size());
    op.operands.assign(operands.begin(), operands.end());
    ValueId result = graph_.addValue("v" + std::to_string(graph_.main.ops.size()), f32(shape));
    op.results = {result};
    op.declaredTypes = {f32(std::move(shape))};
    op.shardings.resize(1);
    op.attrs = std::move(attrs);
    graph_.main.ops.push_back(std::move(op));
    return result;
  }

  const Shape &shapeOf(ValueId v) { return graph_.value(v).type->shape; }

  ValueId matmul(ValueId a, ValueId b, Shape shape) {
    DotGeneralAttrs attrs;
    attrs.lhsContractingDimensions = {1};
    attrs.rhsContractingDimensions = {0};
    return op(OpKind::DotGeneral, {a, b}, std::move(shape), attrs);
  }
  ValueId batchedDot(ValueId a, ValueId b, int64_t lhsContract, int64_t rhsContract, Shape shape) {
    DotGeneralAttrs attrs;
    attrs.lhsBatchingDimensions = {0};
    attrs.rhsBatchingDimensions = {0};
    attrs.lhsContractingDimensions = {lhsContract};
    attrs.rhsContractingDimensions = {rhsContract};
    return op(OpKind::DotGeneral, {a, b}, std::move(shape), attrs);
  }
  ValueId unary(OpKind kind, ValueId a) { return op(kind, {a}, shapeOf(a), NoAttrs{}); }
  ValueId binary(OpKind kind, ValueId a, ValueId b) {
    return op(kind, {a, b}, shapeOf(a), NoAttrs{});
  }
  ValueId reshape(ValueId a, Shape shape) {
    return op(OpKind::Reshape, {a}, std::move(shape), NoAttrs{});
  }
  ValueId transpose(ValueId a, std::vector<int64_t> permutation, Shape shape) {
    return op(OpKind::Transpose, {a}, std::move(shape), TransposeAttrs{std::move(permutation)});
  }
  /// [tokens, model] -> [heads, tokens, head_dim]
  ValueId heads(ValueId a) {
    return transpose(reshape(a, {kTokens, kHeads, kHeadDim}), {1, 0, 2},
                     {kHeads, kTokens, kHeadDim});
  }
  ValueId reduce(ValueId a, ValueId init) {
    ReduceAttrs attrs;
    attrs.dimensions = {2};
    attrs.reducer = Reducer::Add; // a softmax's sum (the verifier wants a reducer or a body)
    return op(OpKind::Reduce, {a, init}, {kHeads, kTokens}, attrs);
  }
  ValueId broadcast(ValueId a, Shape shape) {
    return op(OpKind::BroadcastInDim, {a}, std::move(shape), BroadcastInDimAttrs{{0, 1}});
  }

  Graph graph_;
};

const char *kChainShape = "64x64";

/// bench::weightShardedOnColumns in the mesh dialect (batch dim first).
std::string chainWeightSharding(int64_t layer) {
  return bench::weightShardedOnColumns(layer) ? "[[], [], [1]]" : "[[], [1]]";
}

} // namespace

Graph buildTransformerStack(int64_t layers) { return LayerStackBuilder().build(layers); }

bench::ChainSpec propagationChain(int64_t layers) {
  bench::ChainSpec spec;
  spec.layers = layers;
  spec.dataSize = 4;
  spec.modelSize = 2;
  spec.batchShape = kChainShape;
  spec.weightShape = kChainShape;
  spec.shardWeights = true;
  spec.scale = true;
  return spec;
}

std::string chainGraphMlir(int64_t layers) {
  std::string type = std::string("tensor<1x") + kChainShape + "xf32>";
  std::string binary = " : (" + type + ", " + type + ") -> " + type + "\n";
  std::string mlir = "mesh.mesh @mesh(shape = 4x2)\nfunc.func @main(%x: " + type;
  for (int64_t i = 0; i < layers; ++i) {
    std::string n = std::to_string(i);
    mlir += ", %w" + n + ": " + type + ", %b" + n + ": " + type + ", %s" + n + ": " + type;
  }
  mlir += ") -> " + type + " {\n";
  mlir += "  %h = mesh.shard %x to <@mesh, [[], [0]]> : " + type + "\n";
  std::string h = "%h";
  for (int64_t i = 0; i < layers; ++i) {
    std::string n = std::to_string(i);
    mlir += "  %ws" + n + " = mesh.shard %w" + n + " to <@mesh, " + chainWeightSharding(i) +
            "> : " + type + "\n";
    mlir += "  %m" + n + " = tosa.matmul " + h + ", %ws" + n + binary;
    mlir += "  %a" + n + " = tosa.add %m" + n + ", %b" + n + binary;
    mlir += "  %p" + n + " = tosa.mul %a" + n + ", %s" + n + " {shift = 0 : i8}" + binary;
    mlir += "  %h" + n + " = tosa.tanh %p" + n + " : (" + type + ") -> " + type + "\n";
    h = "%h" + n;
  }
  return mlir + "  return " + h + " : " + type + "\n}\n";
}

} // namespace shardgen
