// while, case and if: a Loop or Branch step (SpmdProgram.h) whose blocks
// hold the steps of their regions. A carried value keeps one layout across
// iterations (its result's sharding, which propagation gave the operand,
// the body's arguments and returned value too): the operand is resharded to
// it before the loop and the body's returned value at the end of the body.
// The condition and the case index are made whole on every device, so all
// devices take the same path and the collectives of a block stay matched.

#include <algorithm>
#include <unordered_set>

#include "compiler/partition/RegionPartitioner.h"
#include "compiler/partition/Reshard.h"

namespace shardgen {

namespace {

/// The values a structured step's blocks read that they do not define
/// (values of the enclosing steps), each once, in the order first read.
std::vector<SpmdValueId> blockCaptures(const SpmdStep &step) {
  std::unordered_set<SpmdValueId> defined, seen;
  std::vector<SpmdValueId> captured;
  auto read = [&](SpmdValueId v) {
    if (!defined.count(v) && seen.insert(v).second)
      captured.push_back(v);
  };
  // A step's carried values, its blocks' steps and results; its outputs
  // after it.
  std::function<void(const SpmdStep &)> enter = [&](const SpmdStep &structured) {
    defined.insert(structured.carried.begin(), structured.carried.end());
    for (const SpmdBlock &block : structured.blocks) {
      for (const SpmdStep &inner : block.steps) {
        for (SpmdValueId v : inner.inputs)
          read(v);
        enter(inner);
        defined.insert(inner.outputs.begin(), inner.outputs.end());
      }
      for (SpmdValueId v : block.results)
        read(v);
    }
  };
  enter(step);
  return captured;
}

/// The result's layout without partial axes: a carried value or a branch's
/// result is held complete (an `unreduced` result sharding is a hint the
/// loop does not keep; its later readers reshard as they would).
ShardLayout completeLayout(ShardLayout layout) {
  layout.partialAxes.clear();
  layout.sharding.unreduced.clear();
  return layout;
}

void appendCaptures(SpmdStep &step) {
  for (SpmdValueId v : blockCaptures(step))
    if (std::find(step.inputs.begin(), step.inputs.end(), v) == step.inputs.end())
      step.inputs.push_back(v);
}

} // namespace

void RegionPartitioner::setLevels(SpmdValueId from, int level) {
  const size_t end = program_.values.size();
  if (levels_.size() < end)
    levels_.resize(end, 0);
  std::fill(levels_.begin() + from, levels_.end(), level);
}

std::vector<SpmdStep> RegionPartitioner::partitionBlock(const std::function<void()> &build,
                                                        bool loop) {
  outerSteps_.push_back(std::move(program_.steps));
  program_.steps.clear();
  loopLevels_.push_back(loop);
  const size_t mark = reshardLog_.size();
  ++depth_;
  build();
  --depth_;
  // Forget the reshards whose steps are in the block (or deeper); those
  // hoisted out of it stay, as long as their level lasts.
  size_t kept = mark;
  for (size_t k = mark; k < reshardLog_.size(); ++k) {
    std::vector<Resharded> &list = resharded_[reshardLog_[k]];
    std::erase_if(list, [&](const Resharded &done) { return done.level > depth_; });
    if (!list.empty() && depth_ > 0)
      reshardLog_[kept++] = reshardLog_[k];
  }
  reshardLog_.resize(kept);
  std::vector<SpmdStep> block = std::move(program_.steps);
  program_.steps = std::move(outerSteps_.back());
  outerSteps_.pop_back();
  loopLevels_.pop_back();
  return block;
}

SpmdValueId RegionPartitioner::reshardApart(SpmdValueId value, const ShardLayout &to, const Op &op,
                                            const std::vector<SpmdValueId> &avoid, size_t allowed) {
  SpmdValueId result = reshard(value, to, &op, op.pointer);
  for (size_t j = 0; j < avoid.size(); ++j)
    if (avoid[j] == result && j != allowed) {
      // Copied apart: the loop writes its carried values one after another.
      SpmdStep copy;
      copy.kind = StepKind::AllSlice;
      copy.op = &op;
      copy.pointer = op.pointer;
      copy.inputs = {result};
      return addStep(std::move(copy), to, program_.values[result].source);
    }
  return result;
}

void RegionPartitioner::partitionWhile(const Op &op) {
  const Region &cond = op.regions[0], &body = op.regions[1];
  const size_t n = op.operands.size();
  SpmdStep loop;
  loop.kind = StepKind::Loop;
  loop.op = &op;
  loop.pointer = op.pointer;
  std::vector<ShardLayout> layouts;
  for (size_t i = 0; i < n; ++i) {
    layouts.push_back(completeLayout(resultLayout(op, i)));
    loop.inputs.push_back(reshard(held_[op.operands[i]], layouts[i], &op, op.pointer));
  }
  for (size_t i = 0; i < n; ++i)
    loop.carried.push_back(
        addValue(graph_.value(body.args[i].value).name, layouts[i], op.results[i]));
  if (n > 0)
    setLevels(loop.carried[0], depth_ + 1); // defined by the loop: never hoisted out of it

  SpmdBlock condition;
  for (size_t i = 0; i < n; ++i)
    held_[cond.args[i].value] = loop.carried[i];
  condition.steps = partitionBlock(
      [&] {
        partitionRegion(cond);
        const ValueId predicate = cond.results[0].value;
        const TensorType &type = graph_.type(predicate);
        condition.results.push_back(reshard(
            held_[predicate], makeShardLayout(mesh_, type, DimAxes(type.rank())), &op, op.pointer));
      },
      true);

  SpmdBlock iteration;
  for (size_t i = 0; i < n; ++i)
    held_[body.args[i].value] = loop.carried[i];
  iteration.steps = partitionBlock(
      [&] {
        partitionRegion(body);
        for (size_t i = 0; i < n; ++i)
          iteration.results.push_back(
              reshardApart(held_[body.results[i].value], layouts[i], op, loop.carried, i));
      },
      true);

  loop.blocks = {std::move(condition), std::move(iteration)};
  for (size_t i = 0; i < n; ++i) {
    loop.outputs.push_back(addValue(graph_.value(op.results[i]).name, layouts[i], op.results[i]));
    held_[op.results[i]] = loop.outputs[i];
  }
  appendCaptures(loop);
  program_.steps.push_back(std::move(loop));
}

void RegionPartitioner::partitionBranches(const Op &op) {
  SpmdStep branch;
  branch.kind = StepKind::Branch;
  branch.op = &op;
  branch.pointer = op.pointer;
  const TensorType &indexType = graph_.type(op.operands[0]);
  branch.inputs.push_back(reshard(held_[op.operands[0]],
                                  makeShardLayout(mesh_, indexType, DimAxes(indexType.rank())), &op,
                                  op.pointer));
  std::vector<ShardLayout> layouts;
  for (size_t j = 0; j < op.results.size(); ++j)
    layouts.push_back(completeLayout(resultLayout(op, j)));
  // A Branch runs block k for index k: if's pred is 1 for true_branch.
  std::vector<const Region *> order;
  for (const Region &region : op.regions)
    order.push_back(&region);
  if (op.kind == OpKind::If)
    std::reverse(order.begin(), order.end());
  for (const Region *region : order) {
    SpmdBlock block;
    block.steps = partitionBlock(
        [&] {
          partitionRegion(*region);
          for (size_t j = 0; j < op.results.size(); ++j)
            block.results.push_back(
                reshard(held_[region->results[j].value], layouts[j], &op, op.pointer));
        },
        false);
    branch.blocks.push_back(std::move(block));
  }
  for (size_t j = 0; j < op.results.size(); ++j) {
    branch.outputs.push_back(addValue(graph_.value(op.results[j]).name, layouts[j], op.results[j]));
    held_[op.results[j]] = branch.outputs[j];
  }
  appendCaptures(branch);
  program_.steps.push_back(std::move(branch));
}

} // namespace shardgen
