// top_k over a sharded last dim: each device takes the top k of its piece
// (indices made global by the piece's offset), the k candidates of every
// piece are gathered along that dim (k * shards values and indices instead
// of the whole row), and a second top_k over them picks the k (its ties,
// lower candidate first, are the lower global index first: the pieces lie
// in order and each piece's candidates are in top_k's order).

#include "compiler/partition/RegionPartitioner.h"

#include <algorithm>

namespace shardgen {

void RegionPartitioner::partitionTopK(const Op &op) {
  if (!partitionShardedTopK(op))
    partitionByRule(op);
}

bool RegionPartitioner::partitionShardedTopK(const Op &op) {
  const ShardLayout &held = program_.layout(held_[op.operands[0]]);
  const TensorType &type = graph_.type(op.operands[0]);
  const std::vector<ShardLayout> wanted = {resultLayout(op, 0), resultLayout(op, 1)};
  if (type.rank() == 0 || held.isDistributed() || !held.partialAxes.empty() || held.hasHalo() ||
      wanted[0].isDistributed() || wanted[1].isDistributed())
    return false;
  const int64_t last = type.rank() - 1;
  const std::vector<AxisRef> rowAxes = dimAxesOf(held)[static_cast<size_t>(last)];
  const int64_t shards = axesSize(mesh_, rowAxes), n = type.shape[last];
  const int64_t k = op.attr<TopKAttrs>().k;
  // Every piece holds at least k elements (equal pieces).
  if (rowAxes.empty() || n % shards != 0 || n / shards < k || k == 0)
    return false;
  // Per row, each device receives (shards - 1) * k candidates (a value and
  // an i32 index each) instead of the rest of the row; nothing when the row
  // was gathered already (for another op).
  const auto width = static_cast<int64_t>(elementByteWidth(type.elementType));
  if ((shards - 1) * k * (width + 4) >= (n - n / shards) * width)
    return false;
  const SpmdValueId operand = held_[op.operands[0]];
  if (static_cast<size_t>(operand) < resharded_.size())
    for (const Resharded &done : resharded_[operand])
      if (!done.layout.isDistributed() && done.layout.partialAxes.empty() &&
          done.layout.numShards(last) == 1)
        return false;
  // The operand as it lies (top_k passes the other dims through); the
  // small results are resharded afterwards.
  const DimAxes local = dimAxesOf(held);
  DimAxes merged = local;
  merged[static_cast<size_t>(last)].clear();

  Shape candidates = type.shape;
  candidates[last] = k * shards;
  const TensorType candidateTypes[] = {{type.elementType, candidates},
                                       {ElementType::I32, candidates}};
  SpmdStep pieces;
  pieces.kind = StepKind::Compute;
  pieces.op = &op;
  pieces.pointer = op.pointer;
  pieces.inputs = {operand};
  for (size_t r = 0; r < 2; ++r)
    pieces.outputs.push_back(addValue(graph_.value(op.results[r]).name + ".candidates",
                                      makeShardLayout(mesh_, candidateTypes[r], local), -1));
  const std::vector<SpmdValueId> perPiece = pieces.outputs;
  program_.steps.push_back(std::move(pieces));

  SpmdStep merge;
  merge.kind = StepKind::Compute;
  merge.op = &op;
  merge.pointer = op.pointer;
  for (size_t r = 0; r < 2; ++r)
    merge.inputs.push_back(
        reshard(perPiece[r], makeShardLayout(mesh_, candidateTypes[r], merged), &op, op.pointer));
  for (size_t r = 0; r < 2; ++r)
    merge.outputs.push_back(addValue(graph_.value(op.results[r]).name,
                                     makeShardLayout(mesh_, graph_.type(op.results[r]), merged),
                                     op.results[r]));
  const std::vector<SpmdValueId> results = merge.outputs;
  program_.steps.push_back(std::move(merge));
  for (size_t r = 0; r < 2; ++r)
    held_[op.results[r]] = reshard(results[r], wanted[r], &op, op.pointer);
  return true;
}

} // namespace shardgen
