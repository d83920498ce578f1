#include "compiler/verify/Verifier.h"

#include <algorithm>

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/CustomCallVerifier.h"
#include "compiler/verify/DistributionVerifier.h"
#include "compiler/verify/ManualComputationVerifier.h"
#include "compiler/verify/MeshVerifier.h"
#include "compiler/verify/ScalarRegionVerifier.h"
#include "compiler/verify/ShardingGroupVerifier.h"
#include "compiler/verify/ShardingVerifier.h"
#include "compiler/verify/TypeInference.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen {

namespace {

using verify::ManualScope;

/// Walks the graph in file order (meshes, inputs, ops with their bodies,
/// outputs), so the first error thrown is the first one in the file.
class GraphVerifier {
public:
  explicit GraphVerifier(Graph &graph) : graph_(graph) {}

  void run() {
    verify::verifyMeshes(graph_);
    verifyRegion(graph_.main, ManualScope{});
  }

private:
  void verifyRegion(Region &region, const ManualScope &scope) {
    for (RegionArgument &arg : region.args)
      verifyArgument(arg, scope);
    for (Op &op : region.ops)
      verifyOp(op, scope);
    for (RegionResult &result : region.results) {
      if (result.sharding)
        verify::verifyShardingInScope(*result.sharding, graph_.type(result.value), graph_,
                                      joinPointer(result.pointer, "sharding"), scope);
      if (result.distribution)
        verify::verifyDistribution(*result.distribution, graph_.type(result.value), result.sharding,
                                   graph_, joinPointer(result.pointer, "distribution"), scope,
                                   distributionChunks_);
    }
  }

  void verifyArgument(const RegionArgument &arg, const ManualScope &scope) {
    const Value &value = graph_.value(arg.value);
    if (!value.type)
      fail(arg.pointer, "\"" + value.name + "\" needs a `type`");
    verify::checkTypeSize(*value.type, joinPointer(arg.pointer, "type"));
    if (arg.sharding)
      verify::verifyShardingInScope(*arg.sharding, *value.type, graph_,
                                    joinPointer(arg.pointer, "sharding"), scope);
    if (arg.distribution)
      verify::verifyDistribution(*arg.distribution, *value.type, arg.sharding, graph_,
                                 joinPointer(arg.pointer, "distribution"), scope,
                                 distributionChunks_);
  }

  void verifyOp(Op &op, const ManualScope &scope) {
    for (size_t i = 0; i < op.declaredTypes.size(); ++i)
      if (op.declaredTypes[i])
        verify::checkTypeSize(*op.declaredTypes[i], verify::resultTypePointer(op, i));
    if (op.kind == OpKind::ManualComputation) {
      verify::verifyManualComputation(
          graph_, op, scope,
          [this](Region &body, const ManualScope &bodyScope) { verifyRegion(body, bodyScope); });
    } else {
      // An op's regions before its own rule, which reads their types.
      for (Region &body : op.regions) {
        if (regionRole(op.kind) == RegionRole::Scalar)
          verifyScalarRegion(op, body, scope);
        else
          verifyRegion(body, scope);
      }
      std::vector<TensorType> types = verify::inferOpResultTypes(graph_, op, scope);
      verify::checkDeclaredTypes(op, types);
      for (size_t i = 0; i < types.size() && i < op.results.size(); ++i)
        graph_.value(op.results[i]).type = types[i]; // uniqued: the one copy is made there
    }
    verifyResultShardings(op, scope);
    verify::verifyResultDistributions(op, graph_, scope, distributionChunks_);
    if (op.kind == OpKind::CustomCall)
      verify::verifyCustomCall(graph_, op);
    if (op.kind == OpKind::ShardingGroup)
      groups_.addMember(graph_, op, scope.innermost);
  }

  /// A scalar body's contents, its ops' types; the op's own rule then checks
  /// its signature.
  void verifyScalarRegion(const Op &op, Region &body, const ManualScope &scope) {
    const std::string what = "the body of " + verify::quotedOpName(op);
    verify::checkScalarRegionContents(graph_, body, what);
    verifyRegion(body, scope);
    verify::checkScalarRegionResults(graph_, body, what);
  }

  void verifyResultShardings(const Op &op, const ManualScope &scope) {
    const bool anySharding = std::any_of(op.shardings.begin(), op.shardings.end(),
                                         [](const auto &sharding) { return sharding.has_value(); });
    if (!anySharding)
      return;
    if (op.shardings.size() != op.results.size())
      fail(op.pointer,
           "result shardings don't match number of values: " + std::to_string(op.shardings.size()) +
               " shardings vs " + std::to_string(op.results.size()) + " values");
    const std::string *firstMesh = nullptr;
    for (size_t i = 0; i < op.shardings.size(); ++i) {
      if (!op.shardings[i])
        continue;
      const TensorSharding &sharding = *op.shardings[i];
      const std::string pointer = verify::resultShardingPointer(op, i);
      verify::verifyShardingInScope(sharding, graph_.type(op.results[i]), graph_, pointer, scope);
      if (!firstMesh)
        firstMesh = &sharding.meshName;
      else if (*firstMesh != sharding.meshName)
        fail(pointer, "result shardings can only be bound to the same mesh, got @" +
                          sharding.meshName + " and @" + *firstMesh);
    }
  }

  Graph &graph_;
  verify::ShardingGroupVerifier groups_;
  int64_t distributionChunks_ = 0; // of the distributions verified so far
};

} // namespace

void verifyGraph(Graph &graph) { GraphVerifier(graph).run(); }

} // namespace shardgen
