// Emission for distributed values (spec "Distributions"): the seed's
// accessor idea. A device's buffer is [k, shardShape...], its chunks in slot
// order; code walks the chunks, each clipped to its real box: consecutive
// whole chunks are one contiguous kernel call, edge chunks are walked row by
// row over their real elements only. Padding is written as zeros by every
// step that defines a distributed value and never read, so it is never
// computed into a result and never a source of undefined behaviour.

#include <algorithm>
#include <string>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/Redistribution.h"

namespace shardgen::codegen {
namespace {

/// Consecutive slots of one device whose chunks have the same real extent.
struct SlotRun {
  int64_t first = 0, count = 0;
  std::vector<int64_t> extent; // the real (clipped) part of each chunk
  bool whole = false;          // no padding
};

std::vector<SlotRun> slotRuns(const ShardLayout &layout, int64_t position) {
  std::vector<SlotRun> runs;
  const std::vector<int64_t> chunks = layout.chunks->chunksOfPosition(position);
  for (size_t slot = 0; slot < chunks.size(); ++slot) {
    std::vector<int64_t> extent = layout.chunks->chunkBox(chunks[slot]).extent;
    if (!runs.empty() && runs.back().extent == extent) {
      ++runs.back().count;
      continue;
    }
    bool whole = extent == layout.chunks->shardShape();
    runs.push_back({static_cast<int64_t>(slot), 1, std::move(extent), whole});
  }
  return runs;
}

/// Emits `code[d]` for device d, devices with equal code sharing a branch.
/// A device's chunks are its own (round-robin), so each is its own class.
void writeCodePerDevice(const EmitterContext &context, CodeWriter &out,
                        const std::vector<std::string> &code) {
  context.writePerDevice(
      out, [](int64_t device, std::vector<int64_t> &key) { key.push_back(device); },
      [&](int64_t device) { return code[device]; });
}

void addCodePerDevice(EmitterContext &context, const std::vector<std::string> &code) {
  writeCodePerDevice(context, context.steps, code);
}

int64_t chunkElements(const ShardLayout &layout) { return product(layout.chunks->shardShape()); }

int64_t widthOf(const ShardLayout &layout) {
  return static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
}

/// "(values[3] + (at) * 4)": a byte pointer `elements` elements further.
std::string advanced(const std::string &buffer, const std::string &elements, int64_t width) {
  if (elements == "0")
    return buffer;
  return "(" + buffer + " + (" + elements + ")" + (width == 1 ? "" : " * " + str(width)) + ")";
}

/// Zeros the chunks of `run` (they have padding; the real part is written next).
std::string zeroRun(const ShardLayout &layout, const std::string &buffer, const SlotRun &run) {
  const int64_t n = run.count * chunkElements(layout);
  std::string word(storageWord(layout.globalType.elementType));
  return "fill<" + word + ", " + str(n) + ">(as<" + word + ">(" +
         advanced(buffer, str(run.first * chunkElements(layout)), widthOf(layout)) + "), 0);\n";
}

/// The rows of a clipped chunk: `rows` walks the row starts (element offsets
/// inside the chunk), each row `rowLength` contiguous elements.
struct ChunkRows {
  StridedWalk rows;
  int64_t rowLength = 1;
};

ChunkRows chunkRows(const std::vector<int64_t> &shardShape, const std::vector<int64_t> &extent) {
  StridedWalk walk;
  walk.extents = extent;
  walk.inStrides = denseStrides(shardShape);
  walk.outStrides = walk.inStrides;
  StridedWalk simple = walk.simplified();
  ChunkRows rows;
  if (simple.inStrides.back() == 1) {
    rows.rowLength = simple.extents.back();
    simple.extents.pop_back();
    simple.inStrides.pop_back();
    simple.outStrides.pop_back();
  }
  rows.rows = simple;
  return rows;
}

/// `body(at)` for every row start `at` (an expression) of the clipped
/// chunks of `run`; the loop variable is `slot`.
template <typename Body>
std::string forEachRow(const ShardLayout &layout, const SlotRun &run, const ChunkRows &rows,
                       Body &&body) {
  const std::string chunkStart = "slot * " + str(chunkElements(layout));
  CodeWriter code;
  {
    auto slots = code.block("for (int64_t slot = " + str(run.first) + "; slot < " +
                            str(run.first + run.count) + "; ++slot)");
    if (rows.rows.extents.empty()) {
      code.lines(body(chunkStart));
    } else {
      auto walk =
          code.block("forEach<" + str(static_cast<int64_t>(rows.rows.extents.size())) + ", " +
                         rows.rows.print() + ">(" + chunkStart + ", 0, [&](int64_t at, int64_t)",
                     "});");
      code.lines(body(std::string("at")));
    }
  }
  return code.take();
}

void emitChunkwiseElementwise(EmitterContext &context, const SpmdStep &step) {
  const ShardLayout &out = context.layout(step.outputs[0]);
  ElementwiseCall call;
  call.op = step.op;
  call.outType = out.globalType.elementType;
  std::vector<bool> chunked;
  for (SpmdValueId input : step.inputs) {
    const ShardLayout &layout = context.layout(input);
    call.inTypes.push_back(layout.globalType.elementType);
    chunked.push_back(layout.isDistributed());
    call.broadcast.push_back(!layout.isDistributed() && !out.globalType.shape.empty());
  }
  // Pointers `at` elements into each chunked buffer (scalars stay put).
  auto pointed = [&](const std::string &at) {
    call.ins.clear();
    for (size_t i = 0; i < step.inputs.size(); ++i)
      call.ins.push_back(chunked[i]
                             ? advanced(EmitterContext::buffer(step.inputs[i]), at,
                                        static_cast<int64_t>(elementByteWidth(call.inTypes[i])))
                             : EmitterContext::buffer(step.inputs[i]));
    call.out = advanced(EmitterContext::buffer(step.outputs[0]), at, widthOf(out));
  };
  std::vector<std::string> code;
  for (int64_t position = 0; position < context.numDevices(); ++position) {
    std::string device;
    for (const SlotRun &run : slotRuns(out, position)) {
      if (run.whole) { // back-to-back whole chunks: one contiguous call
        pointed(str(run.first * chunkElements(out)));
        call.count = run.count * chunkElements(out);
        device += elementwiseKernelCall(call) + "\n";
        continue;
      }
      ChunkRows rows = chunkRows(out.chunks->shardShape(), run.extent);
      device += zeroRun(out, EmitterContext::buffer(step.outputs[0]), run);
      device += forEachRow(out, run, rows, [&](const std::string &at) {
        pointed(at);
        call.count = rows.rowLength;
        return elementwiseKernelCall(call);
      });
    }
    code.push_back(device);
  }
  addCodePerDevice(context, code);
}

void emitChunkwiseReduce(EmitterContext &context, const SpmdStep &step) {
  const auto &attrs = step.op->attr<ReduceAttrs>();
  const ShardLayout &in = context.layout(step.inputs[0]);
  const ShardLayout &out = context.layout(step.outputs[0]);
  const std::vector<int64_t> &inShard = in.chunks->shardShape();
  const std::vector<int64_t> inStrides = denseStrides(inShard);
  const std::vector<int64_t> outStrides = denseStrides(out.chunks->shardShape());
  const ElementType type = out.globalType.elementType;
  const std::string tag(elementTag(type)), word(storageType(type));
  const std::string functor(reducerFunctor(*simpleReducer(*step.op)));
  const int64_t width = widthOf(out);
  auto isReduced = [&](int64_t d) {
    return std::find(attrs.dimensions.begin(), attrs.dimensions.end(), d) != attrs.dimensions.end();
  };
  StridedWalk reduced;
  for (int64_t d = 0; d < static_cast<int64_t>(inShard.size()); ++d)
    if (isReduced(d)) {
      reduced.extents.push_back(inShard[d]);
      reduced.inStrides.push_back(inStrides[d]);
      reduced.outStrides.push_back(0);
    }
  StridedWalk reducedWalk = reduced.simplified();
  std::vector<std::string> code;
  for (int64_t position = 0; position < context.numDevices(); ++position) {
    std::string device;
    for (const SlotRun &run : slotRuns(out, position)) {
      StridedWalk kept;
      kept.extents = run.extent;
      for (int64_t d = 0, k = 0; d < static_cast<int64_t>(inShard.size()); ++d)
        if (!isReduced(d)) {
          kept.inStrides.push_back(inStrides[d]);
          kept.outStrides.push_back(outStrides[k++]);
        }
      StridedWalk keptWalk = kept.simplified();
      if (!run.whole)
        device += zeroRun(out, EmitterContext::buffer(step.outputs[0]), run);
      device += "for (int64_t slot = " + str(run.first) + "; slot < " + str(run.first + run.count) +
                "; ++slot)\n  reduce<" + tag + ", " + functor + ", " +
                str(static_cast<int64_t>(keptWalk.extents.size())) + ", " + keptWalk.print() +
                ", " + str(static_cast<int64_t>(reducedWalk.extents.size())) + ", " +
                reducedWalk.print() + ">(as<" + word + ">(" +
                advanced(EmitterContext::buffer(step.inputs[0]), "slot * " + str(product(inShard)),
                         width) +
                "), as<" + word + ">(" + EmitterContext::buffer(step.inputs[1]) + "), as<" + word +
                ">(" +
                advanced(EmitterContext::buffer(step.outputs[0]),
                         "slot * " + str(chunkElements(out)), width) +
                "));\n";
    }
    code.push_back(device);
  }
  addCodePerDevice(context, code);
}

/// Copies between a distributed buffer and a dense array `other` holding,
/// for each slot, the chunk at `otherStart(slot, chunk)` of `otherShape`.
template <typename Start>
std::string chunkCopies(const ShardLayout &layout, int64_t position, const std::string &buffer,
                        const std::string &other, const Shape &otherShape, Start &&otherStart,
                        bool intoBuffer) {
  std::string word(storageWord(layout.globalType.elementType));
  const std::vector<int64_t> &shard = layout.chunks->shardShape();
  const std::vector<int64_t> chunks = layout.chunks->chunksOfPosition(position);
  Shape bufferShape{static_cast<int64_t>(chunks.size())};
  bufferShape.insert(bufferShape.end(), shard.begin(), shard.end());
  std::string code;
  for (const SlotRun &run : slotRuns(layout, position)) {
    if (intoBuffer && !run.whole)
      code += zeroRun(layout, buffer, run);
    for (int64_t slot = run.first; slot < run.first + run.count; ++slot) {
      std::vector<int64_t> at{slot}, extent{1};
      at.resize(shard.size() + 1, 0);
      extent.insert(extent.end(), run.extent.begin(), run.extent.end());
      std::vector<int64_t> there = otherStart(slot, chunks[slot]);
      StridedWalk walk = intoBuffer ? boxCopy(otherShape, there, bufferShape, at, extent)
                                    : boxCopy(bufferShape, at, otherShape, there, extent);
      std::string copy = intoBuffer ? stridedCopyCall(walk, word, other, buffer)
                                    : stridedCopyCall(walk, word, buffer, other);
      if (!copy.empty())
        code += copy + "\n";
    }
  }
  return code;
}

/// `code[d]` for device d as written by writeCodePerDevice().
std::string perDevice(const EmitterContext &context, const std::vector<std::string> &code) {
  CodeWriter out;
  writeCodePerDevice(context, out, code);
  return out.take();
}

} // namespace

void emitChunkwiseCompute(EmitterContext &context, const SpmdStep &step) {
  if (step.op->kind == OpKind::Reduce)
    return emitChunkwiseReduce(context, step);
  return emitChunkwiseElementwise(context, step);
}

std::string distributedGlobalCopy(EmitterContext &context, SpmdValueId id,
                                  const std::string &global, bool scatter) {
  const ShardLayout &layout = context.layout(id);
  // The global tensor seen as [1, shape...], each chunk at [0, its offset...].
  Shape globalShape{1};
  globalShape.insert(globalShape.end(), layout.globalType.shape.begin(),
                     layout.globalType.shape.end());
  auto chunkStart = [&](int64_t, int64_t chunk) {
    std::vector<int64_t> start{0};
    std::vector<int64_t> offset = layout.chunks->chunkBox(chunk).offset;
    start.insert(start.end(), offset.begin(), offset.end());
    return start;
  };
  std::vector<std::string> code;
  for (int64_t position = 0; position < context.numDevices(); ++position)
    code.push_back(chunkCopies(layout, position, EmitterContext::buffer(id), global, globalShape,
                               chunkStart, scatter));
  return perDevice(context, code);
}

std::string distributedShardCopy(EmitterContext &context, SpmdValueId id, const std::string &other,
                                 bool in) {
  const ShardLayout &layout = context.layout(id);
  std::vector<std::string> code;
  for (int64_t position = 0; position < context.numDevices(); ++position) {
    const Shape shape = layout.extentsOf(position);
    int64_t bytes = product(shape) * widthOf(layout);
    if (bytes == 0) {
      code.emplace_back();
    } else if (!in) { // padding is zero already
      code.push_back("__builtin_memcpy(" + other + ", " + EmitterContext::buffer(id) + ", " +
                     str(bytes) + ");");
    } else { // the caller's padding is ignored: zeros instead
      code.push_back(chunkCopies(
          layout, position, EmitterContext::buffer(id), other, shape,
          [&](int64_t slot, int64_t) {
            std::vector<int64_t> start(shape.size(), 0);
            start[0] = slot;
            return start;
          },
          true));
    }
  }
  return perDevice(context, code);
}

void emitRedistribute(EmitterContext &context, const SpmdStep &step) {
  const Mesh &mesh = context.program.mesh;
  const ShardLayout &in = context.layout(step.inputs.at(0));
  const ShardLayout &out = context.layout(step.outputs.at(0));
  const std::string word(storageWord(out.globalType.elementType));
  const int64_t width = widthOf(out);
  const std::string source = EmitterContext::buffer(step.inputs[0]);
  const std::string target = EmitterContext::buffer(step.outputs[0]);
  const std::vector<RedistributionBlock> blocks = planRedistribution(mesh, in, out);
  const bool exchanges = std::any_of(blocks.begin(), blocks.end(),
                                     [](const RedistributionBlock &b) { return b.from != b.to; });
  const int64_t devices = context.numDevices();
  std::vector<std::string> code;
  for (int64_t position = 0; position < devices; ++position) {
    std::string device;
    if (out.isDistributed())
      for (const SlotRun &run : slotRuns(out, position))
        if (!run.whole)
          device += zeroRun(out, target, run);
    const Shape mine = redistributionBufferShape(in, position);
    const Shape wanted = redistributionBufferShape(out, position);
    // What stays on this device, then what it sends (segment per
    // destination) and receives (segment per source), packed in plan order
    // on both sides.
    std::vector<int64_t> sendAt(devices + 1, 0), recvAt(devices + 1, 0); // in elements
    for (const RedistributionBlock &block : blocks) {
      if (block.from == position && block.to != position)
        sendAt[block.to + 1] += block.elements();
      if (block.to == position && block.from != position)
        recvAt[block.from + 1] += block.elements();
    }
    for (int64_t q = 0; q < devices; ++q) {
      sendAt[q + 1] += sendAt[q];
      recvAt[q + 1] += recvAt[q];
    }
    std::vector<int64_t> sendCursor = sendAt, recvCursor = recvAt;
    std::string pack, unpack;
    for (const RedistributionBlock &block : blocks) {
      std::vector<int64_t> zero(block.extent.size(), 0);
      if (block.from == position && block.to == position) {
        std::string copy =
            stridedCopyCall(boxCopy(mine, block.fromStart, wanted, block.toStart, block.extent),
                            word, source, target);
        device += copy.empty() ? "" : copy + "\n";
      } else if (block.from == position) {
        pack +=
            stridedCopyCall(boxCopy(mine, block.fromStart, block.extent, zero, block.extent), word,
                            source, advanced("send.data", str(sendCursor[block.to]), width)) +
            "\n";
        sendCursor[block.to] += block.elements();
      } else if (block.to == position) {
        unpack +=
            stridedCopyCall(boxCopy(block.extent, zero, wanted, block.toStart, block.extent), word,
                            advanced("recv.data", str(recvCursor[block.from]), width), target) +
            "\n";
        recvCursor[block.from] += block.elements();
      }
    }
    if (exchanges) { // every device takes part, also with nothing to move
      for (int64_t q = 0; q <= devices; ++q) {
        sendAt[q] *= width;
        recvAt[q] *= width;
      }
      CodeWriter code;
      {
        auto scope = code.block();
        code.lines("const int64_t sendAt[] = {" + joinInts(sendAt) + "};");
        code.lines("const int64_t recvAt[] = {" + joinInts(recvAt) + "};");
        code.lines("Scratch send(" + str(sendAt.back()) + "), recv(" + str(recvAt.back()) + ");");
        code.lines(pack);
        code.lines("rt::exchange(device, send.data, sendAt, recv.data, recvAt);");
        code.lines(unpack);
      }
      device += code.take();
    }
    code.push_back(device);
  }
  addCodePerDevice(context, code);
}

} // namespace shardgen::codegen
