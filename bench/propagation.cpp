// Propagation benchmark: stacks of transformer layers (attention + MLP,
// Megatron-style weight shardings, data-parallel activations) of about 1k,
// 10k, 100k and 1M ops, with only the inputs annotated. Prints the time of
// propagateShardings (default strategy) and op visits per second per size;
// cost should grow linearly with the number of ops.
//
//   bench_propagation [max_ops]   (default 1000000)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "compiler/ir/Graph.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"

using namespace shardgen;

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

  ValueId input(const std::string &name, Shape shape, const std::string &dim0,
                const std::string &dim1) {
    std::string pointer = "/inputs/" + std::to_string(graph_.main.args.size());
    ValueId value = graph_.addValue(name, pointer, f32(shape));
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
    op.operands = std::move(operands);
    ValueId result =
        graph_.addValue("v" + std::to_string(graph_.main.ops.size()), op.pointer, f32(shape));
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
  ValueId reshape(ValueId a, Shape shape) { return op(OpKind::Reshape, {a}, shape, NoAttrs{}); }
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
    return op(OpKind::Reduce, {a, init}, {kHeads, kTokens}, attrs);
  }
  ValueId broadcast(ValueId a, Shape shape) {
    return op(OpKind::BroadcastInDim, {a}, std::move(shape), BroadcastInDimAttrs{{0, 1}});
  }

  Graph graph_;
};

constexpr int64_t kOpsPerLayer = 22;

} // namespace

int main(int argc, char **argv) {
  int64_t maxOps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  std::printf("%10s %8s %10s %12s %14s %12s\n", "ops", "layers", "seconds", "op visits",
              "visits/second", "ns/op");
  for (int64_t target = 1000; target <= maxOps; target *= 10) {
    int64_t layers = target / kOpsPerLayer;
    Graph graph = LayerStackBuilder().build(layers);
    if (target == 1000)
      verifyGraph(graph); // the generated graph is a valid one
    auto start = std::chrono::steady_clock::now();
    PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto ops = static_cast<int64_t>(graph.main.ops.size());
    std::printf("%10lld %8lld %10.3f %12lld %14.0f %12.0f\n", static_cast<long long>(ops),
                static_cast<long long>(layers), seconds, static_cast<long long>(result.opVisits),
                result.opVisits / seconds, seconds * 1e9 / static_cast<double>(ops));
    std::fflush(stdout);
    if (std::getenv("SHOW_SHARDINGS"))
      for (size_t v = graph.values.size() - kOpsPerLayer; v < graph.values.size(); ++v)
        std::printf("  %s %s\n", graph.values[v].name.c_str(),
                    printSharding(result.shardings[v]).c_str());
  }
  return 0;
}
