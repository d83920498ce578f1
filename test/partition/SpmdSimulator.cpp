#include "test/partition/SpmdSimulator.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/LocalOps.h"
#include "compiler/interp/ScalarRegion.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/Redistribution.h"
#include "compiler/partition/WindowHalo.h"
#include "compiler/verify/Verifier.h"
#include "test/support/LiteralBox.h"

namespace shardgen {
namespace {

using testing::extractBox;
using testing::insertBox;

using Pieces = std::vector<Literal>; // per mesh position

Literal concatenate(const std::vector<const Literal *> &parts, int64_t dim) {
  TensorType type = parts.front()->type();
  type.shape[dim] = 0;
  for (const Literal *part : parts)
    type.shape[dim] += part->shape()[dim];
  Literal result(type);
  std::vector<int64_t> offsets(type.rank(), 0);
  for (const Literal *part : parts) {
    insertBox(result, *part, offsets);
    offsets[dim] += part->shape()[dim];
  }
  return result;
}

/// Chunk `k` of `n` equal chunks of `dim`.
Literal equalChunk(const Literal &source, int64_t dim, int64_t n, int64_t k) {
  std::vector<int64_t> offsets(source.shape().size(), 0), extents = source.shape();
  if (extents[dim] % n != 0)
    throw std::runtime_error("chunked dim not divisible by the group size");
  extents[dim] /= n;
  offsets[dim] = k * extents[dim];
  return extractBox(source, offsets, extents);
}

void reduceInto(Literal &accumulator, const Literal &other, Reducer reducer) {
  bool floating = isFloat(accumulator.elementType());
  for (int64_t i = 0; i < accumulator.numElements(); ++i) {
    if (floating) {
      double a = accumulator.getFloat(i), b = other.getFloat(i);
      double r = reducer == Reducer::Add   ? a + b
                 : reducer == Reducer::Mul ? a * b
                 : reducer == Reducer::Max ? std::max(a, b)
                                           : std::min(a, b);
      accumulator.setFloat(i, r);
    } else {
      int64_t a = accumulator.getInt(i), b = other.getInt(i);
      int64_t r = 0;
      switch (reducer) {
      case Reducer::Add:
        r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
        break;
      case Reducer::Mul:
        r = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
        break;
      case Reducer::Max:
        r = std::max(a, b);
        break;
      case Reducer::Min:
        r = std::min(a, b);
        break;
      case Reducer::And:
        r = a & b;
        break;
      case Reducer::Or:
        r = a | b;
        break;
      }
      accumulator.setInt(i, r);
    }
  }
}

Literal reduceGroup(const Pieces &pieces, const std::vector<int64_t> &group, Reducer reducer) {
  Literal result = pieces[group[0]];
  for (size_t i = 1; i < group.size(); ++i)
    reduceInto(result, pieces[group[i]], reducer);
  return result;
}

/// Runs one graph op on local operands through a one-op graph (with
/// `attrs` instead of the op's when given).
std::vector<Literal> evaluateLocally(const Op &source, const std::vector<const Literal *> &operands,
                                     const std::vector<TensorType> &resultTypes,
                                     const OpAttributes *attrs = nullptr) {
  Graph graph;
  graph.name = "local";
  std::vector<Literal> inputs;
  Op op;
  op.kind = source.kind;
  op.pointer = "/ops/0";
  op.attrs = attrs ? *attrs : source.attrs;
  for (size_t i = 0; i < operands.size(); ++i) {
    std::string pointer = joinPointer("/inputs", i);
    ValueId value = graph.addValue("a" + std::to_string(i), operands[i]->type());
    graph.main.args.push_back(
        RegionArgument{value, std::nullopt, pointer, {}, std::nullopt, std::nullopt});
    op.operands.push_back(value);
    inputs.push_back(*operands[i]);
  }
  if (op.kind == OpKind::Slice) {
    // The partitioner shards only dims a slice keeps whole.
    auto &attrs = op.attr<SliceAttrs>();
    const Shape &local = operands[0]->shape();
    for (size_t d = 0; d < attrs.limitIndices.size(); ++d)
      if (attrs.startIndices[d] == 0 && attrs.strides[d] == 1 &&
          resultTypes[0].shape[d] == local[d])
        attrs.limitIndices[d] = local[d];
  }
  if (op.kind == OpKind::DynamicSlice) // sliced dims are whole: sizes are the local result's
    op.attr<DynamicSliceAttrs>().sliceSizes = resultTypes[0].shape;
  for (size_t r = 0; r < resultTypes.size(); ++r) {
    op.results.push_back(graph.addValue("r" + std::to_string(r)));
    op.declaredTypes.push_back(resultTypes[r]);
    op.shardings.push_back(std::nullopt);
  }
  op.pluralResults = resultTypes.size() > 1;
  std::vector<ValueId> results(op.results.begin(), op.results.end());
  graph.main.ops.push_back(std::move(op));
  for (size_t r = 0; r < results.size(); ++r)
    graph.main.results.push_back(RegionResult{
        results[r], std::nullopt, joinPointer("/outputs", r), {}, std::nullopt, std::nullopt});
  graph.linkDefinitions();
  verifyGraph(graph);
  for (size_t r = 0; r < results.size(); ++r)
    if (graph.type(results[r]) != resultTypes[r])
      throw std::runtime_error("local " + std::string(source.name()) + " infers " +
                               printType(graph.type(results[r])) + ", layout says " +
                               printType(resultTypes[r]));
  return evaluate(graph, inputs);
}

class Simulator {
public:
  explicit Simulator(const SpmdProgram &program)
      : program_(program), mesh_(program.mesh), numDevices_(mesh_.numDevices()),
        pieces_(program.values.size()) {}

  std::vector<Literal> run(const std::vector<Literal> &inputs) {
    if (inputs.size() != program_.inputs.size())
      throw std::runtime_error("wrong number of inputs");
    for (size_t i = 0; i < inputs.size(); ++i)
      scatter(program_.inputs[i], inputs[i]);
    for (const auto &step : program_.steps)
      runStep(step);
    std::vector<Literal> outputs;
    // The global call style gathers the complete values (an unreduced
    // output's sum); gather() would also sum what is still partial.
    for (size_t i = 0; i < program_.outputs.size(); ++i)
      outputs.push_back(gather(program_.gatheredOutput(i)));
    return outputs;
  }

private:
  const ShardLayout &layout(SpmdValueId v) const { return program_.layout(v); }

  void scatter(SpmdValueId value, const Literal &global) {
    const ShardLayout &l = layout(value);
    Pieces pieces;
    for (int64_t device = 0; device < numDevices_; ++device) {
      Literal piece = extractBox(global, l.offsetsOf(device), l.extentsOf(device));
      // A partial input: position 0 over the partial axes holds the value.
      if (!l.partialAxes.empty() && indexOverAxes(mesh_, l.partialAxes, device) != 0)
        piece = Literal(piece.type());
      pieces.push_back(std::move(piece));
    }
    pieces_[value] = std::move(pieces);
  }

  Literal gather(SpmdValueId value) const {
    const ShardLayout &l = layout(value);
    const Pieces &pieces = pieces_.at(value);
    Literal global(l.globalType);
    // One contribution per (box, partial index): the lowest device holding it.
    std::map<std::pair<std::vector<int64_t>, int64_t>, int64_t> owner;
    for (int64_t device = 0; device < numDevices_; ++device)
      owner.try_emplace({l.offsetsOf(device), indexOverAxes(mesh_, l.partialAxes, device)}, device);
    std::map<std::vector<int64_t>, Literal> boxes;
    for (const auto &[key, device] : owner) {
      auto [it, inserted] = boxes.try_emplace(key.first, pieces[device]);
      if (!inserted)
        reduceInto(it->second, pieces[device], l.partialReducer);
    }
    for (const auto &[offsets, box] : boxes)
      insertBox(global, box, offsets);
    return global;
  }

  void check(SpmdValueId value, const SpmdStep &step) const {
    for (int64_t device = 0; device < numDevices_; ++device)
      if (pieces_[value][device].type() != layout(value).localType(device))
        throw std::runtime_error(std::string(stepKindName(step.kind)) + " at " + step.pointer +
                                 " gives device " + std::to_string(device) + " a piece " +
                                 printType(pieces_[value][device].type()) + ", its layout " +
                                 printType(layout(value).localType(device)));
  }

  /// Each value's group pieces folded by the reduce's body in group position
  /// order, element by element (SpmdProgram.h).
  void runRegionAllReduce(const SpmdStep &step) {
    const size_t n = step.inputs.size();
    interp::ScalarRegion body(*program_.graph, *step.op->body());
    std::vector<Pieces> out(n, Pieces(numDevices_));
    std::vector<interp::ScalarBits> arguments(2 * n), results(n);
    for (int64_t device = 0; device < numDevices_; ++device) {
      std::vector<int64_t> group = groupDevices(mesh_, step.axes, device);
      for (size_t i = 0; i < n; ++i)
        out[i][device] = pieces_[step.inputs[i]][group[0]];
      for (int64_t e = 0; e < out[0][device].numElements(); ++e) {
        for (size_t k = 1; k < group.size(); ++k) {
          for (size_t i = 0; i < n; ++i) {
            arguments[i] = interp::loadScalarBits(out[i][device], e);
            arguments[n + i] = interp::loadScalarBits(pieces_[step.inputs[i]][group[k]], e);
          }
          body.run(arguments, results);
          for (size_t i = 0; i < n; ++i)
            interp::storeScalarBits(out[i][device], e, results[i]);
        }
      }
    }
    for (size_t i = 0; i < n; ++i) {
      pieces_[step.outputs[i]] = std::move(out[i]);
      check(step.outputs[i], step);
    }
  }

  /// A loop or branch: its blocks' steps, the condition or index read on
  /// device 0 (the coherence check proves every device holds the same).
  void runStructured(const SpmdStep &step) {
    auto copy = [&](const std::vector<SpmdValueId> &from, const std::vector<SpmdValueId> &to) {
      for (size_t i = 0; i < from.size() && i < to.size(); ++i)
        pieces_[to[i]] = pieces_[from[i]];
    };
    auto runBlock = [&](const SpmdBlock &block) {
      for (const SpmdStep &inner : block.steps)
        runStep(inner);
    };
    if (step.kind == StepKind::Loop) {
      copy(step.inputs, step.carried);
      for (int64_t iteration = 0;; ++iteration) {
        if (iteration > (int64_t(1) << 20))
          throw std::runtime_error("the simulated loop runs on and on");
        runBlock(step.blocks[0]);
        if (pieces_[step.blocks[0].results[0]][0].getInt(0) == 0)
          break;
        runBlock(step.blocks[1]);
        copy(step.blocks[1].results, step.carried);
      }
      copy(step.carried, step.outputs);
      return;
    }
    const int64_t last = static_cast<int64_t>(step.blocks.size()) - 1;
    int64_t taken = pieces_[step.inputs[0]][0].getInt(0);
    if (taken < 0 || taken > last)
      taken = last;
    runBlock(step.blocks[static_cast<size_t>(taken)]);
    copy(step.blocks[static_cast<size_t>(taken)].results, step.outputs);
  }

  void runStep(const SpmdStep &step) {
    if (step.kind == StepKind::RegionAllReduce)
      return runRegionAllReduce(step);
    if (isStructured(step))
      return runStructured(step);
    Pieces out(numDevices_);
    for (int64_t device = 0; device < numDevices_; ++device)
      out[device] = runOnDevice(step, device);
    SpmdValueId result = step.outputs[0];
    if (step.kind == StepKind::Compute) {
      // Multi-result ops: runOnDevice stored the other results already.
      for (size_t r = 1; r < step.outputs.size(); ++r)
        check(step.outputs[r], step);
    }
    pieces_[result] = std::move(out);
    check(result, step);
  }

  Literal runOnDevice(const SpmdStep &step, int64_t device) {
    const ShardLayout &in = layout(step.inputs.empty() ? step.outputs[0] : step.inputs[0]);
    const ShardLayout &outLayout = layout(step.outputs[0]);
    auto input = [&](int64_t d) -> const Literal & { return pieces_[step.inputs[0]][d]; };
    std::vector<int64_t> group = groupDevices(mesh_, step.axes, device);
    int64_t position = indexOverAxes(mesh_, step.axes, device);
    switch (step.kind) {
    case StepKind::Compute:
      return compute(step, device);
    case StepKind::Alias:
      return input(device);
    case StepKind::Redistribute: { // the blocks landing here, element by element
      Literal out(outLayout.localType(device));
      const size_t width = elementByteWidth(outLayout.globalType.elementType);
      const Shape to = redistributionBufferShape(outLayout, device);
      for (const RedistributionBlock &block : planRedistribution(mesh_, in, outLayout)) {
        if (block.to != device)
          continue;
        const Shape from = redistributionBufferShape(in, block.from);
        for (int64_t e = 0; e < block.elements(); ++e) {
          int64_t rest = e, source = 0, target = 0, fromStride = 1, toStride = 1;
          for (size_t d = block.extent.size(); d-- > 0;) {
            int64_t at = rest % block.extent[d];
            rest /= block.extent[d];
            source += (block.fromStart[d] + at) * fromStride;
            target += (block.toStart[d] + at) * toStride;
            fromStride *= from[d];
            toStride *= to[d];
          }
          std::memcpy(out.data() + target * width, input(block.from).data() + source * width,
                      width);
        }
      }
      return out;
    }
    case StepKind::AllSlice: {
      std::vector<int64_t> offsets(in.rank());
      for (int64_t d = 0; d < in.rank(); ++d)
        offsets[d] = outLayout.extent(device, d) == 0
                         ? 0
                         : outLayout.offset(device, d) - in.offset(device, d);
      return extractBox(input(device), offsets, outLayout.extentsOf(device));
    }
    case StepKind::AllGather: {
      std::vector<const Literal *> parts;
      for (int64_t member : group)
        parts.push_back(&input(member));
      return concatenate(parts, step.dimension);
    }
    case StepKind::AllToAll: {
      std::vector<Literal> received;
      for (int64_t member : group)
        received.push_back(equalChunk(input(member), step.dimension,
                                      static_cast<int64_t>(group.size()), position));
      std::vector<const Literal *> parts;
      for (const auto &part : received)
        parts.push_back(&part);
      return concatenate(parts, step.concatDimension);
    }
    case StepKind::CollectivePermute:
      for (auto [source, target] : step.pairs)
        if (target == device)
          return input(source);
      return Literal(input(device).type());
    case StepKind::AllReduce:
      return reduceGroup(pieces_[step.inputs[0]], group, step.reducer);
    case StepKind::ReduceScatter:
      return equalChunk(reduceGroup(pieces_[step.inputs[0]], group, step.reducer), step.dimension,
                        static_cast<int64_t>(group.size()), position);
    case StepKind::Broadcast:
      return input(group[0]);
    case StepKind::RegionAllReduce: // runRegionAllReduce
    case StepKind::Loop:            // runStructured
    case StepKind::Branch:
      break;
    }
    throw std::runtime_error("unknown step kind");
  }

  Literal compute(const SpmdStep &step, int64_t device) {
    const Op &op = *step.op;
    const ShardLayout &result = layout(step.outputs[0]);
    switch (op.kind) {
    case OpKind::Constant:
      return extractBox(op.attr<ConstantAttrs>().expanded(), result.offsetsOf(device),
                        result.extentsOf(device));
    case OpKind::Iota: {
      Literal local(result.localType(device));
      int64_t dim = op.attr<IotaAttrs>().iotaDimension;
      std::vector<int64_t> strides = local.strides();
      for (int64_t i = 0; i < local.numElements(); ++i) {
        int64_t index = (i / strides[dim]) % local.shape()[dim] + result.offset(device, dim);
        if (isFloat(local.elementType()))
          local.setFloat(i, static_cast<double>(index));
        else
          local.setInt(i, index);
      }
      return local;
    }
    case OpKind::AxisIndex: {
      Literal local(result.localType(device));
      local.setInt(0, axisCoordinate(mesh_, AxisRef::full(op.attr<AxisIndexAttrs>().axis), device));
      return local;
    }
    case OpKind::TopK:
      if (step.inputs.size() == 2)
        return mergeTopK(step, device);
      break;
    case OpKind::RngBitGenerator:
      return randomBitsPiece(step, device);
    case OpKind::Gather:
      return gatherPiece(step, device);
    case OpKind::Scatter:
      return scatterPiece(step, device);
    default:
      break;
    }
    // A windowed op on pieces of a cut windowed dim: the padding of its
    // place (WindowHalo.h).
    std::optional<OpAttributes> padded;
    if ((op.kind == OpKind::ReduceWindow || op.kind == OpKind::Convolution) &&
        cutsWindowedDims(*program_.graph, op, layout(step.inputs[0]))) {
      padded = op.attrs;
      std::vector<std::array<int64_t, 2>> padding = localWindowPadding(
          *program_.graph, op, layout(step.inputs[0]), layout(step.outputs[0]), device);
      if (op.kind == OpKind::ReduceWindow)
        std::get<ReduceWindowAttrs>(padded->mutableGet()).padding = std::move(padding);
      else
        std::get<ConvolutionAttrs>(padded->mutableGet()).padding = std::move(padding);
    }
    std::vector<const Literal *> operands;
    for (SpmdValueId v : step.inputs)
      operands.push_back(&pieces_[v][device]);
    std::vector<TensorType> types;
    bool allEmpty = true;
    for (SpmdValueId v : step.outputs) {
      types.push_back(layout(v).localType(device));
      allEmpty = allEmpty && types.back().numElements() == 0;
    }
    // A device whose pieces are all empty (uneven shards) has nothing to compute.
    std::vector<Literal> results;
    if (allEmpty)
      for (const auto &type : types)
        results.emplace_back(type);
    else if (padded && op.kind == OpKind::ReduceWindow) // its body's values are the graph's
      results = interp::evalReduceWindow(
          std::span(operands).first(operands.size() / 2),
          std::span(operands).subspan(operands.size() / 2),
          interp::reduceWindowSpec(std::get<ReduceWindowAttrs>(padded->get())),
          interp::ScalarRegion(*program_.graph, *op.body()));
    else if (!op.regions.empty())
      results = interp::evalLocalOp(*program_.graph, op, operands, nullptr);
    else
      results = evaluateLocally(op, operands, types, padded ? &*padded : nullptr);
    const ShardLayout &first = layout(step.inputs.empty() ? step.outputs[0] : step.inputs[0]);
    if (op.kind == OpKind::TopK && first.numShards(first.rank() - 1) > 1) {
      // A piece of the row: its indices made global (SpmdProgram.h).
      for (int64_t i = 0; i < results[1].numElements(); ++i)
        results[1].setInt(i, results[1].getInt(i) + first.offset(device, first.rank() - 1));
    }
    for (size_t r = 1; r < results.size(); ++r) {
      if (pieces_[step.outputs[r]].empty())
        pieces_[step.outputs[r]].resize(numDevices_);
      pieces_[step.outputs[r]][device] = std::move(results[r]);
    }
    return std::move(results[0]);
  }

  /// top_k's merge of gathered candidates: the top k of the values, each
  /// with its candidate's (global) index (SpmdProgram.h).
  Literal mergeTopK(const SpmdStep &step, int64_t device) {
    const Literal &values = pieces_[step.inputs[0]][device];
    const Literal &indices = pieces_[step.inputs[1]][device];
    std::vector<Literal> picked = interp::evalTopK(values, step.op->attr<TopKAttrs>().k);
    const int64_t n = values.shape().back(), k = picked[1].shape().back();
    for (int64_t i = 0; i < picked[1].numElements(); ++i)
      picked[1].setInt(i, indices.getInt(i / k * n + picked[1].getInt(i)));
    if (pieces_[step.outputs[1]].empty())
      pieces_[step.outputs[1]].resize(numDevices_);
    pieces_[step.outputs[1]][device] = std::move(picked[1]);
    return std::move(picked[0]);
  }

  /// rng_bit_generator's piece of bits: the whole stream's elements at the
  /// piece's place (the generated code computes them from their counters in
  /// the whole output); the state is replicated.
  Literal randomBitsPiece(const SpmdStep &step, int64_t device) {
    const ShardLayout &bits = layout(step.outputs[1]);
    std::vector<Literal> whole = interp::evalRngBitGenerator(
        pieces_[step.inputs[0]][device], step.op->attr<RngBitGeneratorAttrs>().algorithm(),
        bits.globalType);
    if (pieces_[step.outputs[1]].empty())
      pieces_[step.outputs[1]].resize(numDevices_);
    pieces_[step.outputs[1]][device] =
        extractBox(whole[1], bits.offsetsOf(device), bits.extentsOf(device));
    return std::move(whole[0]);
  }

  /// The sum's identity of `type`: -0.0 for floats, 0 for integers.
  static Literal sumIdentity(const TensorType &type) {
    Literal out(type);
    if (isFloat(type.elementType))
      for (int64_t i = 0; i < out.numElements(); ++i)
        out.setFloat(i, -0.0);
    return out;
  }

  /// gather on local pieces, as the generated code runs it: a dim the
  /// operand holds whole or the slice takes whole is read as it is; a dim
  /// sharded under a slice of size 1 (the devices' results are summed) is
  /// read in the global frame, where the rows this piece lacks are the
  /// sum's identity.
  Literal gatherPiece(const SpmdStep &step, int64_t device) {
    const Op &op = *step.op;
    const ShardLayout &operandLayout = layout(step.inputs[0]);
    const TensorType resultType = layout(step.outputs[0]).localType(device);
    if (resultType.numElements() == 0)
      return Literal(resultType);
    const Literal &piece = pieces_[step.inputs[0]][device];
    const Shape &global = operandLayout.globalType.shape;
    GatherAttrs attrs = op.attr<GatherAttrs>();
    Shape frame = piece.shape();
    std::vector<int64_t> at(frame.size(), 0);
    const auto &batching = attrs.dimensionNumbers.operandBatchingDims;
    for (size_t d = 0; d < frame.size(); ++d) {
      if (attrs.sliceSizes[d] == global[d])
        attrs.sliceSizes[d] = piece.shape()[d];
      else if (piece.shape()[d] != global[d] &&
               std::find(batching.begin(), batching.end(), d) == batching.end()) {
        frame[d] = global[d];
        at[d] = operandLayout.offset(device, static_cast<int64_t>(d));
      }
    }
    Literal framed = sumIdentity(TensorType{piece.elementType(), frame});
    interp::insertBlock(framed, piece, at);
    Op local;
    local.kind = op.kind;
    local.attrs = attrs;
    return evaluateLocally(local, {&framed, &pieces_[step.inputs[1]][device]}, {resultType})[0];
  }

  /// scatter on local pieces: a scatter-add split over its updates (a
  /// partial result) scatters into the input on the first piece of its
  /// group and into the sum's identity on the others; an input sharded
  /// along an inserted window dim is scattered into in the global frame
  /// (the updates landing elsewhere go nowhere).
  Literal scatterPiece(const SpmdStep &step, int64_t device) {
    const ShardLayout &result = layout(step.outputs[0]), &inputLayout = layout(step.inputs[0]);
    const TensorType type = result.localType(device);
    if (type.numElements() == 0)
      return Literal(type);
    Literal input = pieces_[step.inputs[0]][device];
    if (!result.partialAxes.empty() && indexOverAxes(mesh_, result.partialAxes, device) != 0)
      input = sumIdentity(input.type());
    const auto &inserted = step.op->attr<ScatterAttrs>().dimensionNumbers.insertedWindowDims;
    Shape frame = input.shape();
    std::vector<int64_t> at(frame.size(), 0);
    for (int64_t d : inserted) {
      frame[d] = inputLayout.globalType.shape[d];
      at[d] = inputLayout.offset(device, d);
    }
    Literal framed(TensorType{input.elementType(), frame});
    interp::insertBlock(framed, input, at);
    Literal scattered = interp::evalLocalOp(
        *program_.graph, *step.op,
        {&framed, &pieces_[step.inputs[1]][device], &pieces_[step.inputs[2]][device]}, nullptr)[0];
    return interp::extractBlock(scattered, at, input.shape());
  }

  const SpmdProgram &program_;
  const Mesh &mesh_;
  int64_t numDevices_;
  std::vector<Pieces> pieces_;
};

} // namespace

std::vector<Literal> simulateSpmd(const SpmdProgram &program, const std::vector<Literal> &inputs) {
  return Simulator(program).run(inputs);
}

} // namespace shardgen
