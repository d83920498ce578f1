#pragma once
// The partitioner's working state: the program being built and, for every
// graph value, the SPMD value holding it in its sharding. Ops are
// partitioned in program order; manual computations recurse into their body.

#include <functional>
#include <optional>
#include <vector>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

class RegionPartitioner {
public:
  RegionPartitioner(const Graph &graph, SpmdProgram &program);

  /// Creates the program's inputs, partitions the main region, creates the outputs.
  void partitionMain();

private:
  /// The local computation an op's factor axes imply: what its operands must
  /// be resharded to and what its results come out as.
  struct LocalComputation {
    std::vector<ShardLayout> operands, results;
    int64_t bytesMoved = 0; // by the operand and result reshards
  };

  void partitionRegion(const Region &region);
  /// By the op's row's Partition column (compiler/ops/Ops.def).
  void partitionOp(const Op &op);
  void partitionByRule(const Op &op);
  /// An op computed chunk by chunk where its distributed result lives (an
  /// elementwise op, or a reduce over dims each chunk holds whole): its
  /// operands are brought to the matching distribution (scalars:
  /// replicated). False when the op cannot be (its result is not
  /// distributed, or a reduce over an empty dim).
  bool partitionChunkwise(const Op &op);
  void partitionIdentity(const Op &op);
  /// An op with no data of its own in the program (sharding_group).
  void partitionNothing(const Op &op);
  void partitionManualComputation(const Op &op);
  void partitionCollective(const Op &op);
  /// while: one Loop step (ControlFlowPartitioning.cpp).
  void partitionWhile(const Op &op);
  /// case, if: one Branch step.
  void partitionBranches(const Op &op);
  /// The steps `build` appends, as a block of their own (`loop`: a loop's
  /// condition or body): the reshards made there are not reused after it
  /// (they run only when the block does). A reshard in a loop's block of a
  /// value from before the loop runs before the loop instead (hoisted).
  std::vector<SpmdStep> partitionBlock(const std::function<void()> &build, bool loop);
  /// The block depth at which value `v` is defined (0: the program's steps).
  int levelOf(SpmdValueId v) const {
    return static_cast<size_t>(v) < levels_.size() ? levels_[static_cast<size_t>(v)] : 0;
  }
  /// Values [from, end) are defined at `level`.
  void setLevels(SpmdValueId from, int level);
  /// `value` in layout `to`, as a value none of `avoid` is: a copy (an
  /// all_slice to the same layout) when it would be one of them.
  SpmdValueId reshardApart(SpmdValueId value, const ShardLayout &to, const Op &op,
                           const std::vector<SpmdValueId> &avoid, size_t allowed);
  /// The full values of a general-body reduce from its partial results
  /// (partial over the sharded reduced dims' axes): one RegionAllReduce.
  std::vector<SpmdValueId> combinePartials(const Op &op, const std::vector<SpmdValueId> &partials);

  /// A windowed op (reduce_window, convolution) whose windowed operand
  /// holds a windowed dim sharded as its wanted result does: that dim stays
  /// sharded in `local` (each device computes its own windows), and the
  /// operands' layouts with the halo their windows read are returned (none
  /// for operands read as they are). Dims haloFor refuses stay gathered.
  std::vector<std::optional<ShardLayout>>
  shardWindowedDims(const Op &op, const std::vector<ShardLayout> &wanted, LocalComputation &local);
  /// `value` widened to `haloed` (its layout with halos): one Redistribute
  /// step, each device receiving exactly its halo rows from its neighbours.
  SpmdValueId exchangeHalos(SpmdValueId value, const ShardLayout &haloed, const Op &op);

  /// top_k (TopKPartitioning.cpp): with its last dim sharded, each device
  /// takes the top k of its piece, the candidates are gathered and merged;
  /// else by its rule (the row gathered).
  void partitionTopK(const Op &op);
  bool partitionShardedTopK(const Op &op);

  /// The layout a sharding slot (at `pointer`) asks for; replicated when
  /// absent or on another (trivial) mesh. Throws GraphError when the
  /// sharding names an axis the mesh lacks or uses an axis twice.
  ShardLayout wantedLayout(const TensorType &type, const std::optional<TensorSharding> &sharding,
                           const std::string &pointer) const;
  ShardLayout resultLayout(const Op &op, size_t result) const;
  /// The layout of a graph input or output: its distribution, or its sharding.
  ShardLayout endLayout(const RegionArgument &end) const;
  /// The layout of `distribution` (replicated when it is on another,
  /// one-device mesh: programMesh refused two meshes of several devices).
  ShardLayout distributedLayout(const TensorType &type, const Distribution &distribution) const;

  SpmdValueId addValue(std::string name, ShardLayout layout, ValueId source);
  /// Appends a step from `inputs` to one new value holding graph value `source`.
  SpmdValueId addStep(SpmdStep step, ShardLayout layout, ValueId source);
  /// `value` in layout `to`: the collectives are appended once per value
  /// and target layout, and later uses share their result (an unreduced
  /// value read by two ops is all-reduced once).
  SpmdValueId reshard(SpmdValueId value, const ShardLayout &to, const Op *op,
                      const std::string &pointer);

  const Graph &graph_;
  SpmdProgram &program_;
  const Mesh &mesh_;
  std::vector<SpmdValueId> held_; // per graph ValueId
  struct Resharded {
    ShardLayout layout;
    SpmdValueId value;
    int level = 0; // the block depth its steps were appended at
  };
  std::vector<std::vector<Resharded>> resharded_; // per SpmdValueId: its reshards so far
  /// Inside blocks: the values resharded_ grew for, in order.
  std::vector<SpmdValueId> reshardLog_;
  /// Blocks being partitioned: depth_ of them, the step lists of the levels
  /// around them (outerSteps_[k]: level k's), whether each is a loop's.
  int depth_ = 0;
  std::vector<std::vector<SpmdStep>> outerSteps_;
  std::vector<bool> loopLevels_;
  std::vector<int> levels_; // per SpmdValueId, see levelOf (filled inside blocks only)
};

} // namespace shardgen
