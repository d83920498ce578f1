#include "compiler/partition/RegionPartitioner.h"

#include <algorithm>

#include "compiler/interp/ScalarRegion.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Progress.h"
#include "compiler/partition/FactorAxes.h"
#include "compiler/partition/Reshard.h"
#include "compiler/propagate/ShardingRules.h"

namespace shardgen {
namespace {

/// A general body applies the inits once per shard of a sharded reduced dim
/// (and once more combining the shards): harmless when the inits are
/// constants the body keeps, body(init, init) = init, as argmax's (-inf, 0)
/// is for its body. (For a body that is associative and commutative, any
/// number of inits then gives the same result as one.)
bool regionReductionSplits(const Graph &graph, const Op &op) {
  const size_t n = op.operands.size() / 2;
  std::vector<interp::ScalarBits> arguments, results(n);
  for (size_t i = 0; i < n; ++i) {
    const Op *init = graph.value(op.operands[n + i]).definingOp;
    if (!init || init->kind != OpKind::Constant)
      return false;
    arguments.push_back(interp::loadScalarBits(init->attr<ConstantAttrs>().elements, 0));
  }
  arguments.insert(arguments.end(), arguments.begin(), arguments.end());
  interp::ScalarRegion(graph, *op.body()).run(arguments, results);
  return std::equal(results.begin(), results.end(), arguments.begin());
}

/// A reduce adds its init once per shard of a sharded reduced dim; that is
/// only harmless for idempotent reducers or an init that is the identity.
bool reductionSplits(const Graph &graph, const Op &op) {
  if (op.kind != OpKind::Reduce)
    return true;
  std::optional<Reducer> simple = simpleReducer(op);
  if (!simple)
    return regionReductionSplits(graph, op);
  Reducer reducer = *simple;
  if (reducer != Reducer::Add && reducer != Reducer::Mul)
    return true;
  const Op *init = graph.value(op.operands[1]).definingOp;
  if (!init || init->kind != OpKind::Constant)
    return false;
  const ConstantAttrs &value = init->attr<ConstantAttrs>();
  int64_t identity = reducer == Reducer::Add ? 0 : 1;
  const int64_t count =
      value.splat ? std::min<int64_t>(value.type.numElements(), 1) : value.type.numElements();
  for (int64_t i = 0; i < count; ++i) {
    bool isIdentity =
        isFloat(value.type.elementType) || isComplex(value.type.elementType)
            ? value.getFloat(i) == static_cast<double>(identity) && value.getImag(i) == 0
            : value.getInt(i) == identity;
    if (!isIdentity)
      return false;
  }
  return true;
}

} // namespace

RegionPartitioner::RegionPartitioner(const Graph &graph, SpmdProgram &program)
    : graph_(graph), program_(program), mesh_(program.mesh), held_(graph.values.size(), -1) {}

void RegionPartitioner::partitionMain() {
  // Most graph values become one program value and most ops one step:
  // reserved up front, so a 1M-op program's vectors are not moved on every
  // doubling (whole-program memmoves and fresh pages to clear).
  program_.values.reserve(graph_.values.size());
  program_.steps.reserve(graph_.main.ops.size());
  for (const auto &arg : graph_.main.args) {
    SpmdValueId id = addValue(graph_.value(arg.value).name, endLayout(arg), arg.value);
    held_[arg.value] = id;
    program_.inputs.push_back(id);
  }
  partitionRegion(graph_.main);
  for (const auto &result : graph_.main.results)
    program_.outputs.push_back(
        reshard(held_[result.value], endLayout(result), nullptr, result.pointer));
  for (size_t i = 0; i < program_.outputs.size(); ++i) {
    ShardLayout complete = program_.layout(program_.outputs[i]);
    if (!complete.partialAxes.empty()) {
      complete.partialAxes.clear();
      complete.sharding.unreduced.clear();
    }
    program_.gatheredOutputs.push_back(
        reshard(program_.outputs[i], complete, nullptr, graph_.main.results[i].pointer));
  }
  program_.held = held_;
}

void RegionPartitioner::partitionRegion(const Region &region) {
  auto total = static_cast<int64_t>(region.ops.size());
  for (int64_t done = 0; done < total; ++done) {
    partitionOp(region.ops[done]);
    if (!region.parentOp && ((done + 1) % 64 == 0 || done + 1 == total))
      reportProgress("ops", done + 1, total); // the graph's own ops, not bodies
  }
}

void RegionPartitioner::partitionOp(const Op &op) {
  // The op table's Partition column (compiler/ops/Ops.def): a row naming a
  // hook the partitioner does not have fails to compile.
  using Hook = void (RegionPartitioner::*)(const Op &);
  static constexpr Hook kHooks[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, Bounds, Emit, Partition)                                           \
  &RegionPartitioner::Partition,
#include "compiler/ops/Ops.def"
  };
  static_assert(std::size(kHooks) == kNumOpKinds);
  (this->*kHooks[static_cast<size_t>(op.kind)])(op);
}

void RegionPartitioner::partitionNothing(const Op &) {
  // sharding_group only ties shardings during propagation.
}

void RegionPartitioner::partitionIdentity(const Op &op) {
  // Each operand becomes its result (optimization_barrier: several).
  for (size_t i = 0; i < op.results.size() && i < op.operands.size(); ++i)
    held_[op.results[i]] = reshard(held_[op.operands[i]], resultLayout(op, i), &op, op.pointer);
}

bool RegionPartitioner::partitionChunkwise(const Op &op) {
  if (op.results.size() != 1)
    return false;
  ShardLayout result = resultLayout(op, 0);
  if (!result.isDistributed())
    return false;
  const Distribution &distribution = *result.distribution;
  const TensorType &resultType = graph_.type(op.results[0]);
  // Per operand: the distribution it is computed in (none: replicated).
  std::vector<std::optional<Distribution>> operandDistributions;
  if (isPerElement(op.kind)) {
    for (ValueId operand : op.operands) {
      if (graph_.type(operand).shape == resultType.shape)
        operandDistributions.push_back(distribution);
      else
        operandDistributions.push_back(std::nullopt); // a broadcast scalar
    }
  } else if (op.kind == OpKind::Reduce) {
    const TensorType &input = graph_.type(op.operands[0]);
    // Chunk by chunk: one input, a simple reducer (the chunk kernels').
    if (op.operands.size() != 2 || input.numElements() == 0 || !simpleReducer(op))
      return false;
    // Each chunk holds the reduced dims whole: one output chunk per chunk.
    Distribution whole = distribution;
    whole.shardShape.clear();
    const std::vector<int64_t> &dims = op.attr<ReduceAttrs>().dimensions;
    for (int64_t d = 0, kept = 0; d < input.rank(); ++d)
      whole.shardShape.push_back(std::find(dims.begin(), dims.end(), d) != dims.end()
                                     ? input.shape[d]
                                     : distribution.shardShape[kept++]);
    operandDistributions = {whole, std::nullopt};
  } else {
    return false;
  }
  SpmdStep step;
  step.kind = StepKind::Compute;
  step.op = &op;
  step.pointer = op.pointer;
  for (size_t t = 0; t < op.operands.size(); ++t) {
    const TensorType &type = graph_.type(op.operands[t]);
    ShardLayout local = operandDistributions[t]
                            ? makeDistributedLayout(mesh_, type, *operandDistributions[t])
                            : makeShardLayout(mesh_, type, DimAxes(type.rank()));
    step.inputs.push_back(reshard(held_[op.operands[t]], local, &op, op.pointer));
  }
  SpmdValueId id = addValue(graph_.value(op.results[0]).name, result, op.results[0]);
  step.outputs.push_back(id);
  program_.steps.push_back(std::move(step));
  held_[op.results[0]] = id;
  return true;
}

void RegionPartitioner::partitionByRule(const Op &op) {
  if (partitionChunkwise(op))
    return;
  OpShardingRule rule = partitioningRuleFor(graph_, op);
  FactorAxesRequest request;
  request.rule = &rule;
  for (ValueId operand : op.operands) {
    request.operandShapes.push_back(graph_.type(operand).shape);
    request.operandAxes.push_back(dimAxesOf(program_.layout(held_[operand])));
  }
  std::vector<ShardLayout> wanted;
  for (size_t r = 0; r < op.results.size(); ++r) {
    wanted.push_back(resultLayout(op, r));
    request.resultShapes.push_back(graph_.type(op.results[r]).shape);
    request.resultAxes.push_back(dimAxesOf(wanted.back()));
  }
  request.allowShardedReduction = reductionSplits(graph_, op);
  // A general reduce body combines its shards jointly (RegionAllReduce), no
  // reducer of a collective can.
  const std::optional<Reducer> simple =
      op.kind == OpKind::Reduce ? simpleReducer(op) : std::optional(Reducer::Add);
  const Reducer reducer = simple.value_or(Reducer::Add);

  auto localComputation = [&](const FactorAxes &axes) {
    LocalComputation local;
    std::vector<AxisRef> partial;
    for (int64_t f = 0; f < rule.numFactors(); ++f)
      if (rule.factorKinds[f] == FactorKind::Reduction)
        partial.insert(partial.end(), axes[f].begin(), axes[f].end());
    partial = mergedAxes(mesh_, partial);
    for (size_t t = 0; t < op.operands.size(); ++t) {
      local.operands.push_back(makeShardLayout(mesh_, graph_.type(op.operands[t]),
                                               tensorAxes(mesh_, rule.operands[t], axes)));
      local.bytesMoved +=
          planReshard(mesh_, program_.layout(held_[op.operands[t]]), local.operands.back())
              .bytesReceived;
    }
    for (size_t r = 0; r < op.results.size(); ++r) {
      local.results.push_back(makeShardLayout(mesh_, graph_.type(op.results[r]),
                                              tensorAxes(mesh_, rule.results[r], axes), partial,
                                              reducer));
      local.bytesMoved += planReshard(mesh_, local.results.back(), wanted[r]).bytesReceived;
    }
    return local;
  };
  // Results first (the usual choice), or sharded contractions first with a
  // reduce_scatter afterwards: whichever moves fewer bytes.
  LocalComputation local = localComputation(assignFactorAxes(mesh_, request));
  if (simple) { // a reduce_scatter takes a simple reducer
    request.reductionFirst = true;
    LocalComputation alternative = localComputation(assignFactorAxes(mesh_, request));
    if (alternative.bytesMoved < local.bytesMoved)
      local = std::move(alternative);
  }

  // Windowed dims the operand and the result keep sharded exchange halos
  // instead of being gathered (WindowPartitioning.cpp).
  const std::vector<std::optional<ShardLayout>> haloed = shardWindowedDims(op, wanted, local);

  SpmdStep step;
  step.kind = StepKind::Compute;
  step.op = &op;
  step.pointer = op.pointer;
  for (size_t t = 0; t < op.operands.size(); ++t) {
    SpmdValueId input = reshard(held_[op.operands[t]], local.operands[t], &op, op.pointer);
    step.inputs.push_back(t < haloed.size() && haloed[t] ? exchangeHalos(input, *haloed[t], op)
                                                         : input);
  }
  for (size_t r = 0; r < op.results.size(); ++r)
    step.outputs.push_back(
        addValue(graph_.value(op.results[r]).name, local.results[r], op.results[r]));
  std::vector<SpmdValueId> computed = step.outputs;
  program_.steps.push_back(std::move(step));
  if (!simple && !local.results.empty() && !local.results[0].partialAxes.empty())
    computed = combinePartials(op, computed);
  for (size_t r = 0; r < op.results.size(); ++r)
    held_[op.results[r]] = reshard(computed[r], wanted[r], &op, op.pointer);
}

std::vector<SpmdValueId>
RegionPartitioner::combinePartials(const Op &op, const std::vector<SpmdValueId> &partials) {
  SpmdStep step;
  step.kind = StepKind::RegionAllReduce;
  step.op = &op;
  step.pointer = op.pointer;
  step.axes = program_.layout(partials[0]).partialAxes;
  step.inputs = partials;
  for (size_t r = 0; r < partials.size(); ++r) {
    ShardLayout full = program_.layout(partials[r]);
    full.partialAxes.clear();
    full.sharding.unreduced.clear();
    step.outputs.push_back(
        addValue(graph_.value(op.results[r]).name + "." + std::to_string(program_.values.size()),
                 std::move(full), op.results[r]));
  }
  std::vector<SpmdValueId> combined = step.outputs;
  program_.steps.push_back(std::move(step));
  return combined;
}

ShardLayout RegionPartitioner::wantedLayout(const TensorType &type,
                                            const std::optional<TensorSharding> &sharding,
                                            const std::string &pointer) const {
  DimAxes dims(type.rank());
  std::vector<AxisRef> partial;
  if (sharding && sharding->meshName == mesh_.name && mesh_.numDevices() > 1) {
    if (sharding->rank() != type.rank())
      fail(pointer, "sharding " + printSharding(*sharding) + " has " +
                        std::to_string(sharding->rank()) + " dims for a tensor of rank " +
                        std::to_string(type.rank()));
    for (int64_t d = 0; d < type.rank(); ++d)
      dims[d] = sharding->dims[d].axes;
    partial = sharding->unreduced;
    std::vector<AxisRef> used = partial;
    for (const auto &axes : dims)
      used.insert(used.end(), axes.begin(), axes.end());
    for (size_t i = 0; i < used.size(); ++i) {
      if (!mesh_.axisIndex(used[i].name))
        fail(pointer, "unknown axis \"" + used[i].name + "\" in sharding " +
                          printSharding(*sharding) + " (mesh @" + mesh_.name + ")");
      for (size_t j = 0; j < i; ++j)
        if (used[i].overlaps(used[j], mesh_))
          fail(pointer, "axis " + printAxisRef(used[i]) + " is used more than once in sharding " +
                            printSharding(*sharding));
    }
  }
  return makeShardLayout(mesh_, type, dims, partial);
}

ShardLayout RegionPartitioner::distributedLayout(const TensorType &type,
                                                 const Distribution &distribution) const {
  if (distribution.meshName != mesh_.name)
    return makeShardLayout(mesh_, type, DimAxes(type.rank()));
  return makeDistributedLayout(mesh_, type, distribution);
}

ShardLayout RegionPartitioner::endLayout(const RegionArgument &end) const {
  if (end.distribution)
    return distributedLayout(graph_.type(end.value), *end.distribution);
  return wantedLayout(graph_.type(end.value), end.sharding, joinPointer(end.pointer, "sharding"));
}

ShardLayout RegionPartitioner::resultLayout(const Op &op, size_t result) const {
  if (result < op.distributions.size() && op.distributions[result])
    return distributedLayout(graph_.type(op.results[result]), *op.distributions[result]);
  std::optional<TensorSharding> sharding;
  if (result < op.shardings.size())
    sharding = op.shardings[result];
  std::string pointer = op.pluralResults ? joinPointer(joinPointer(op.pointer, "shardings"), result)
                                         : joinPointer(op.pointer, "sharding");
  return wantedLayout(graph_.type(op.results[result]), sharding, pointer);
}

SpmdValueId RegionPartitioner::addValue(std::string name, ShardLayout layout, ValueId source) {
  program_.values.push_back(SpmdValue{std::move(name), std::move(layout), source});
  const auto id = static_cast<SpmdValueId>(program_.values.size()) - 1;
  if (depth_ > 0)
    setLevels(id, depth_);
  return id;
}

SpmdValueId RegionPartitioner::addStep(SpmdStep step, ShardLayout layout, ValueId source) {
  std::string name = source >= 0 ? graph_.value(source).name : "tmp";
  if (!step.inputs.empty() && program_.values[step.inputs[0]].source == source)
    name += "." + std::to_string(program_.values.size());
  SpmdValueId id = addValue(std::move(name), std::move(layout), source);
  step.outputs = {id};
  program_.steps.push_back(std::move(step));
  return id;
}

SpmdValueId RegionPartitioner::reshard(SpmdValueId value, const ShardLayout &to, const Op *op,
                                       const std::string &pointer) {
  if (resharded_.size() <= static_cast<size_t>(value))
    resharded_.resize(value + 1);
  for (const Resharded &done : resharded_[value])
    if (sameLayout(done.layout, to))
      return done.value;
  // Out of the loops around that do not define the value: before them.
  int level = depth_;
  while (level > levelOf(value) && loopLevels_[static_cast<size_t>(level) - 1])
    --level;
  const auto firstNew = static_cast<SpmdValueId>(program_.values.size());
  if (level != depth_)
    std::swap(program_.steps, outerSteps_[static_cast<size_t>(level)]);
  SpmdValueId result = appendReshard(program_, value, to, op, pointer);
  if (level != depth_)
    std::swap(program_.steps, outerSteps_[static_cast<size_t>(level)]);
  if (depth_ > 0)
    setLevels(firstNew, level);
  if (result != value) {
    resharded_[value].push_back(Resharded{to, result, level});
    if (depth_ > 0)
      reshardLog_.push_back(value);
  }
  return result;
}

} // namespace shardgen
