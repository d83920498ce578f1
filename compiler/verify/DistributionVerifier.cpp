#include "compiler/verify/DistributionVerifier.h"

#include <algorithm>

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

void verifyDistribution(const Distribution &distribution, const TensorType &type,
                        const std::optional<TensorSharding> &sharding, const Graph &graph,
                        const std::string &pointer, const ManualScope &scope,
                        int64_t &graphChunks) {
  if (sharding)
    fail(pointer, "a value has a \"sharding\" or a \"distribution\", never both");
  // Distributions deal chunks over a whole mesh; a body is local to its
  // manual axes (spec: only graph inputs, outputs and `distribute`).
  if (scope.insideBody)
    fail(pointer, "a distribution is not allowed inside a manual_computation body");
  if (!graph.findMesh(distribution.meshName))
    fail(joinPointer(pointer, "mesh"), "unknown mesh \"" + distribution.meshName + "\"");
  const std::string shapePointer = joinPointer(pointer, "shard_shape");
  if (distribution.rank() != type.rank())
    fail(shapePointer, "shard_shape has " + std::to_string(distribution.rank()) +
                           " sizes, but the tensor has rank " + std::to_string(type.rank()));
  for (size_t d = 0; d < distribution.shardShape.size(); ++d)
    if (distribution.shardShape[d] < 1)
      fail(joinPointer(shapePointer, d), "shard_shape sizes must be at least 1, got " +
                                             std::to_string(distribution.shardShape[d]));
  // The generated code copies each chunk by a statement of its own (into and
  // out of the global tensor, and between devices): the chunk count bounds
  // the code, checked before anything is laid out.
  int64_t chunks = 1;
  for (size_t d = 0; d < distribution.shardShape.size(); ++d) {
    const int64_t size = type.shape[d];
    chunks *= size == 0 ? 0 : (size - 1) / distribution.shardShape[d] + 1;
    if (chunks > kMaxDistributionChunks)
      fail(shapePointer, "shard_shape [" + joinInts(distribution.shardShape) + "] cuts " +
                             printType(type) + " into more than " +
                             std::to_string(kMaxDistributionChunks) +
                             " chunks (the most a distribution may have): use larger shards");
  }
  // A device's buffer is [k, shard_shape...] (edge chunks padded): its
  // bytes are computed in int64_t everywhere after this, so they must fit
  // (a shard_shape near 2^63 wrapped them: a crash, or zeros for a result).
  int64_t bytes = static_cast<int64_t>(elementByteWidth(type.elementType));
  bool fits = !__builtin_mul_overflow(bytes, std::max<int64_t>(chunks, 1), &bytes);
  for (size_t d = 0; d < distribution.shardShape.size() && fits; ++d)
    fits = !__builtin_mul_overflow(bytes, distribution.shardShape[d], &bytes);
  if (!fits)
    fail(shapePointer, "shard_shape [" + joinInts(distribution.shardShape) +
                           "] makes a device's buffer of " + printType(type) +
                           " too large: its size in bytes exceeds 2^63 - 1");
  graphChunks += chunks;
  if (graphChunks > kMaxGraphDistributionChunks)
    fail(shapePointer, "the graph's distributions cut their tensors into more than " +
                           std::to_string(kMaxGraphDistributionChunks) +
                           " chunks in all (the most a graph may have): use larger shards");
}

std::string resultDistributionPointer(const Op &op, size_t index) {
  return op.pluralResults ? joinPointer(attrPointer(op, "distributions"), index)
                          : attrPointer(op, "distribution");
}

void verifyResultDistributions(const Op &op, const Graph &graph, const ManualScope &scope,
                               int64_t &graphChunks) {
  for (size_t i = 0; i < op.distributions.size() && i < op.results.size(); ++i) {
    if (!op.distributions[i])
      continue;
    std::optional<TensorSharding> sharding =
        i < op.shardings.size() ? op.shardings[i] : std::nullopt;
    verifyDistribution(*op.distributions[i], graph.type(op.results[i]), sharding, graph,
                       resultDistributionPointer(op, i), scope, graphChunks);
  }
}

} // namespace shardgen::verify
