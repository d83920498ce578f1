// Emission of Compute steps: one graph op on local pieces. Each op becomes a
// call of a kernel template (templates/kernels/) instantiated at the local
// extents; where devices differ (uneven shards, offsets) the call is
// per-device.

#include <algorithm>
#include <string>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/Fusion.h"
#include "compiler/codegen/RegionEmitter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ir/Literal.h"

namespace shardgen::codegen {

namespace {

/// Per-device emission helper for one step.
struct StepView {
  EmitterContext &context;
  const SpmdStep &step;

  const Op &op() const { return *step.op; }
  SpmdValueId in(size_t i) const { return step.inputs.at(i); }
  SpmdValueId out(size_t i = 0) const { return step.outputs.at(i); }
  Shape inShape(size_t i, int64_t d) const { return context.localShape(in(i), d); }
  Shape outShape(int64_t d, size_t i = 0) const { return context.localShape(out(i), d); }
  const Shape &globalIn(size_t i) const { return context.layout(in(i)).globalType.shape; }
  const Shape &globalOut(size_t i = 0) const { return context.layout(out(i)).globalType.shape; }
  std::string inBuf(size_t i) const { return EmitterContext::buffer(in(i)); }
  std::string outBuf(size_t i = 0) const { return EmitterContext::buffer(out(i)); }
  ElementType inType(size_t i) const { return context.elementType(in(i)); }
  ElementType outType(size_t i = 0) const { return context.elementType(out(i)); }
  std::string outWord() const { return std::string(storageWord(outType())); }
  std::string outStorage() const { return std::string(storageType(outType())); }

  /// `codeFor(d)` depends on the device through its pieces' shapes (and,
  /// `withOffsets`, the results' offsets) only.
  template <typename Fn> void perDevice(Fn &&codeFor, bool withOffsets = false) {
    std::vector<SpmdValueId> ids = step.inputs;
    ids.insert(ids.end(), step.outputs.begin(), step.outputs.end());
    if (!withOffsets)
      return context.addPerPieceShape(ids, codeFor);
    context.addPerDevice(
        [&](int64_t d, std::vector<int64_t> &key) { context.pieceKey(ids, d, key, true); },
        codeFor);
  }
};

// The op table's Emit column (compiler/ops/Ops.def): the C++ of one step of
// each op on its local pieces. A row naming an emitter this file does not
// define fails the build.
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, Bounds, Emit, ...)                                                 \
  void Emit(StepView s);
#include "compiler/ops/Ops.def"

/// The constant's words, as a file-scope array; returns its name.
std::string emitConstantData(EmitterContext &context, const Literal &value) {
  const size_t width = elementByteWidth(value.elementType());
  std::string word(storageWord(value.elementType()));
  std::string data;
  const auto *bytes = reinterpret_cast<const unsigned char *>(value.data());
  // A 16-byte element (complex<f64>) is two 8-byte words: {low, high}.
  const size_t wordWidth = std::min<size_t>(width, 8), words = width / wordWidth;
  for (int64_t i = 0; i < value.numElements(); ++i) {
    std::string element;
    for (size_t w = 0; w < words; ++w) {
      uint64_t bits = 0;
      for (size_t b = 0; b < wordWidth; ++b) // little endian
        bits |= static_cast<uint64_t>(bytes[i * width + w * wordWidth + b]) << (8 * b);
      element += (w ? ", " : "") + std::to_string(bits) +
                 (wordWidth == 8   ? "ull"
                  : wordWidth == 4 ? "u"
                                   : "");
    }
    data += (i % 8 == 0 ? (i ? ",\n    " : "    ") : ", ") +
            (words > 1 ? "{" + element + "}" : element);
  }
  if (value.numElements() == 0)
    data = "    0";
  return context.constant("kConstant", "alignas(64) const " + word + " ", "[] = {\n" + data + "};");
}

void emitConstant(StepView s) {
  const ConstantAttrs &constant = s.op().attr<ConstantAttrs>();
  if (constant.splat && !s.context.layout(s.out()).isDistributed()) {
    // One word, filled at run time: no array of the tensor's size.
    std::string data = emitConstantData(s.context, constant.elements);
    s.perDevice([&](int64_t d) -> std::string {
      int64_t n = product(s.outShape(d));
      if (n == 0)
        return "";
      return "fillFrom<" + s.outWord() + ", " + str(n) + ">(as<" + s.outWord() + ">(" + s.outBuf() +
             "), " + data + ");";
    });
    return;
  }
  const Literal value = constant.expanded();
  std::string data = emitConstantData(s.context, value);
  const ShardLayout &layout = s.context.layout(s.out());
  s.perDevice(
      [&](int64_t d) {
        std::vector<int64_t> zero(layout.rank(), 0);
        return stridedCopyCall(
            boxCopy(value.shape(), layout.offsetsOf(d), s.outShape(d), zero, s.outShape(d)),
            s.outWord(), data, s.outBuf());
      },
      true);
}

void emitIota(StepView s) {
  int64_t dim = s.op().attr<IotaAttrs>().iotaDimension;
  const ShardLayout &layout = s.context.layout(s.out());
  std::string tag(elementTag(s.outType()));
  s.perDevice(
      [&](int64_t d) -> std::string {
        const Shape &shape = s.outShape(d);
        int64_t n = product(shape);
        if (n == 0)
          return "";
        std::vector<int64_t> strides = denseStrides(shape);
        return "iota<" + tag + ", " + str(n) + ", " + str(strides[dim]) + ", " + str(shape[dim]) +
               ", " + str(layout.offset(d, dim)) + ">(as<" + s.outStorage() + ">(" + s.outBuf() +
               "));";
      },
      true);
}

/// The elementwise call of step `s` (ops of ElementwiseCall), without its
/// element count.
ElementwiseCall elementwiseCallOf(StepView s) {
  ElementwiseCall call;
  call.op = &s.op();
  call.outType = s.outType();
  call.out = s.outBuf();
  for (size_t i = 0; i < s.step.inputs.size(); ++i) {
    call.inTypes.push_back(s.inType(i));
    call.broadcast.push_back(s.globalIn(i).empty() && !s.globalOut().empty());
    call.ins.push_back(s.inBuf(i));
  }
  return call;
}

void emitElementwise(StepView s) {
  ElementwiseCall call = elementwiseCallOf(s);
  s.perDevice([&](int64_t d) -> std::string {
    call.count = product(s.outShape(d));
    return call.count == 0 ? "" : elementwiseKernelCall(call);
  });
}

bool isIdentity(const std::vector<int64_t> &order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

/// Copies `operand`'s local piece into `order` (a permutation of its dims),
/// into a scratch named `name`; returns the code, or "" when `order` is the
/// identity (the piece is used in place).
std::string permuteInto(const Shape &shape, const std::vector<int64_t> &order,
                        std::string_view word, int64_t width, const std::string &source,
                        const std::string &name) {
  if (isIdentity(order))
    return "";
  std::vector<int64_t> strides = denseStrides(shape);
  StridedWalk walk;
  Shape permuted;
  for (int64_t d : order)
    permuted.push_back(shape[d]);
  walk.extents = permuted;
  for (int64_t d : order)
    walk.inStrides.push_back(strides[d]);
  walk.outStrides = denseStrides(permuted);
  int64_t bytes = product(shape) * width;
  return "Scratch " + name + "(" + std::to_string(bytes) + ");\n" +
         stridedCopyCall(walk, word, source, name + ".data") + "\n";
}

/// The dot's kernel call; with an `epilogue` (a lambda, Fusion.h) it writes
/// the epilogue's results into `result`'s buffer instead of the product.
void emitDotGeneralInto(StepView s, SpmdValueId result, const std::string &epilogue) {
  const auto &attrs = s.op().attr<DotGeneralAttrs>();
  const int64_t lhsRank = static_cast<int64_t>(s.globalIn(0).size());
  const int64_t rhsRank = static_cast<int64_t>(s.globalIn(1).size());
  std::vector<int64_t> lhsFree =
      dotGeneralFreeDims(lhsRank, attrs.lhsBatchingDimensions, attrs.lhsContractingDimensions);
  std::vector<int64_t> rhsFree =
      dotGeneralFreeDims(rhsRank, attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions);
  // Canonical forms: lhs [batch, free, contracting], rhs [batch, contracting, free].
  std::vector<int64_t> lhsOrder = attrs.lhsBatchingDimensions;
  lhsOrder.insert(lhsOrder.end(), lhsFree.begin(), lhsFree.end());
  lhsOrder.insert(lhsOrder.end(), attrs.lhsContractingDimensions.begin(),
                  attrs.lhsContractingDimensions.end());
  std::vector<int64_t> rhsOrder = attrs.rhsBatchingDimensions;
  rhsOrder.insert(rhsOrder.end(), attrs.rhsContractingDimensions.begin(),
                  attrs.rhsContractingDimensions.end());
  rhsOrder.insert(rhsOrder.end(), rhsFree.begin(), rhsFree.end());
  // The kernel also packs B from [batch, free, contracting] (q k^T): such
  // an rhs is read in place, and one that needs a copy anyway is copied
  // into that form when it keeps the innermost dim innermost (whole rows
  // move, not single elements).
  std::vector<int64_t> rhsTransposedOrder = attrs.rhsBatchingDimensions;
  rhsTransposedOrder.insert(rhsTransposedOrder.end(), rhsFree.begin(), rhsFree.end());
  rhsTransposedOrder.insert(rhsTransposedOrder.end(), attrs.rhsContractingDimensions.begin(),
                            attrs.rhsContractingDimensions.end());
  auto keepsInnermost = [&](const std::vector<int64_t> &order) {
    return !order.empty() && order.back() == rhsRank - 1;
  };
  const bool transposedRhs =
      !isIdentity(rhsOrder) && (isIdentity(rhsTransposedOrder) ||
                                (keepsInnermost(rhsTransposedOrder) && !keepsInnermost(rhsOrder)));
  if (transposedRhs)
    rhsOrder = rhsTransposedOrder;
  std::string tag(elementTag(s.outType()));
  std::string word = s.outStorage();
  const int64_t width = static_cast<int64_t>(elementByteWidth(s.outType()));
  s.perDevice([&](int64_t d) -> std::string {
    const Shape &lhs = s.inShape(0, d), &rhs = s.inShape(1, d);
    auto extentOf = [](const Shape &shape, const std::vector<int64_t> &dims) {
      int64_t p = 1;
      for (int64_t dim : dims)
        p *= shape[dim];
      return p;
    };
    int64_t batch = extentOf(lhs, attrs.lhsBatchingDimensions);
    int64_t m = extentOf(lhs, lhsFree), k = extentOf(lhs, attrs.lhsContractingDimensions);
    int64_t n = extentOf(rhs, rhsFree);
    if (product(s.outShape(d)) == 0)
      return "";
    CodeWriter code;
    {
      auto scope = code.block();
      std::string lhsCode = permuteInto(lhs, lhsOrder, word, width, s.inBuf(0), "lhs");
      std::string rhsCode = permuteInto(rhs, rhsOrder, word, width, s.inBuf(1), "rhs");
      code.lines(lhsCode + rhsCode);
      code.lines("dotGeneral<" + tag + ", " + str(batch) + ", " + str(m) + ", " + str(n) + ", " +
                 str(k) + (transposedRhs ? ", true" : "") + ">(as<" + word + ">(" +
                 (lhsCode.empty() ? s.inBuf(0) : "lhs.data") + "), as<" + word + ">(" +
                 (rhsCode.empty() ? s.inBuf(1) : "rhs.data") + "), as<" + word + ">(" +
                 EmitterContext::buffer(result >= 0 ? result : s.out()) + ")" +
                 (epilogue.empty() ? "" : ", " + epilogue) + ");");
    }
    return code.take();
  });
}

void emitDotGeneral(StepView s) { emitDotGeneralInto(s, -1, ""); }

void emitTranspose(StepView s) {
  const auto &permutation = s.op().attr<TransposeAttrs>().permutation;
  s.perDevice([&](int64_t d) {
    const Shape &in = s.inShape(0, d);
    std::vector<int64_t> strides = denseStrides(in);
    StridedWalk walk;
    walk.extents = s.outShape(d);
    for (int64_t p : permutation)
      walk.inStrides.push_back(strides[p]);
    walk.outStrides = denseStrides(s.outShape(d));
    return stridedCopyCall(walk, s.outWord(), s.inBuf(0), s.outBuf());
  });
}

void emitReshape(StepView s) {
  s.perDevice([&](int64_t d) {
    StridedWalk walk;
    walk.extents = {product(s.outShape(d))};
    walk.inStrides = walk.outStrides = {1};
    return stridedCopyCall(walk, s.outWord(), s.inBuf(0), s.outBuf());
  });
}

void emitBroadcastInDim(StepView s) {
  const auto &dims = s.op().attr<BroadcastInDimAttrs>().broadcastDimensions;
  s.perDevice([&](int64_t d) {
    const Shape &in = s.inShape(0, d), &out = s.outShape(d);
    std::vector<int64_t> inStrides = denseStrides(in);
    StridedWalk walk;
    walk.extents = out;
    walk.inStrides.assign(out.size(), 0);
    walk.outStrides = denseStrides(out);
    for (size_t j = 0; j < dims.size(); ++j)
      if (in[j] == out[dims[j]])
        walk.inStrides[dims[j]] = inStrides[j];
    return stridedCopyCall(walk, s.outWord(), s.inBuf(0), s.outBuf());
  });
}

void emitReduce(StepView s) {
  const std::optional<Reducer> reducer = simpleReducer(s.op());
  if (!reducer)
    return emitReduceRegion(s.context, s.step);
  const auto &attrs = s.op().attr<ReduceAttrs>();
  std::string tag(elementTag(s.outType()));
  std::string word = s.outStorage();
  std::string functor(reducerFunctor(*reducer));
  s.perDevice([&](int64_t d) -> std::string {
    const Shape &in = s.inShape(0, d);
    std::vector<int64_t> inStrides = denseStrides(in);
    StridedWalk kept, reduced;
    for (size_t dim = 0; dim < in.size(); ++dim) {
      bool isReduced = std::find(attrs.dimensions.begin(), attrs.dimensions.end(),
                                 static_cast<int64_t>(dim)) != attrs.dimensions.end();
      StridedWalk &walk = isReduced ? reduced : kept;
      walk.extents.push_back(in[dim]);
      walk.inStrides.push_back(inStrides[dim]);
    }
    if (kept.empty())
      return "";
    kept.outStrides = denseStrides(kept.extents);
    reduced.outStrides.assign(reduced.extents.size(), 0);
    // An empty reduction yields the init value: a walk of no elements.
    std::string reducedWalk;
    if (reduced.empty()) {
      reducedWalk = "1, Walk<1>{{0}, {0}, {0}, 0, 0}";
    } else {
      StridedWalk r = reduced.simplified();
      reducedWalk = std::to_string(r.extents.size()) + ", " + r.print();
    }
    StridedWalk k = kept.simplified();
    return "reduce<" + tag + ", " + functor + ", " + std::to_string(k.extents.size()) + ", " +
           k.print() + ", " + reducedWalk + ">(as<" + word + ">(" + s.inBuf(0) + "), as<" + word +
           ">(" + s.inBuf(1) + "), as<" + word + ">(" + s.outBuf() + "));";
  });
}

void emitConcatenate(StepView s) {
  int64_t dim = s.op().attr<ConcatenateAttrs>().dimension;
  s.perDevice([&](int64_t d) {
    const Shape &out = s.outShape(d);
    std::string code;
    int64_t at = 0;
    for (size_t i = 0; i < s.step.inputs.size(); ++i) {
      const Shape &in = s.inShape(i, d);
      std::vector<int64_t> zero(in.size(), 0), to(in.size(), 0);
      to[dim] = at;
      std::string call =
          stridedCopyCall(boxCopy(in, zero, out, to, in), s.outWord(), s.inBuf(i), s.outBuf());
      if (!call.empty())
        code += call + "\n";
      at += in[dim];
    }
    return code;
  });
}

/// Whether dim `dim` is whole on this device in both operand and result, so
/// the op's attributes (written for whole dims) apply to it locally.
bool wholeDim(StepView s, int64_t d, int64_t dim) {
  return s.inShape(0, d)[dim] == s.globalIn(0)[dim] && s.outShape(d)[dim] == s.globalOut()[dim];
}

void emitSlice(StepView s) {
  const auto &attrs = s.op().attr<SliceAttrs>();
  s.perDevice([&](int64_t d) {
    const Shape &in = s.inShape(0, d);
    std::vector<int64_t> strides = denseStrides(in);
    StridedWalk walk;
    walk.extents = s.outShape(d);
    walk.outStrides = denseStrides(walk.extents);
    for (size_t dim = 0; dim < in.size(); ++dim) {
      bool whole = wholeDim(s, d, static_cast<int64_t>(dim));
      int64_t start = whole ? attrs.startIndices[dim] : 0;
      int64_t step = whole ? attrs.strides[dim] : 1;
      walk.inOffset += start * strides[dim];
      walk.inStrides.push_back(step * strides[dim]);
    }
    return stridedCopyCall(walk, s.outWord(), s.inBuf(0), s.outBuf());
  });
}

/// The element offset, in a buffer of `shape` (local), of a dynamic slice
/// of `sizes` (global) out of a tensor of `dims` (global): each start index
/// (operands `first`, ...) read and clamped at run time. A dim that can
/// move is whole on every device (partitioningRuleFor); the others add 0.
std::string dynamicStartOffset(StepView s, size_t first, const Shape &dims, const Shape &sizes,
                               const Shape &shape) {
  std::vector<int64_t> strides = denseStrides(shape);
  std::string offset;
  for (size_t dim = 0; dim < dims.size(); ++dim) {
    const int64_t last = dims[dim] - sizes[dim];
    if (last == 0)
      continue;
    SHARDGEN_CHECK(shape[dim] == dims[dim], "a dynamic slice's sliced dim is not whole");
    const std::string index(storageType(s.inType(first + dim)));
    offset += (offset.empty() ? "" : " + ") +
              ("clampedStart<" + index + ", " + str(last) + ">(as<" + index + ">(" +
               s.inBuf(first + dim) + ")) * " + str(strides[dim]));
  }
  return offset.empty() ? "0" : offset;
}

void emitDynamicSlice(StepView s) {
  s.perDevice([&](int64_t d) {
    const Shape &in = s.inShape(0, d), &out = s.outShape(d);
    StridedWalk walk{out, denseStrides(in), denseStrides(out)};
    return stridedCopyCall(walk, s.outWord(), s.inBuf(0), s.outBuf(),
                           dynamicStartOffset(s, 1, s.globalIn(0), s.globalOut(), in));
  });
}

void emitDynamicUpdateSlice(StepView s) {
  s.perDevice([&](int64_t d) -> std::string {
    const Shape &out = s.outShape(d), &update = s.inShape(1, d);
    const std::string word = s.outWord();
    if (product(out) == 0)
      return "";
    std::string code = "copy<" + word + ", " + str(product(out)) + ">(as<" + word + ">(" +
                       s.inBuf(0) + "), as<" + word + ">(" + s.outBuf() + "));";
    StridedWalk walk{update, denseStrides(update), denseStrides(out)};
    std::string write =
        stridedCopyCall(walk, word, s.inBuf(1), s.outBuf(), "",
                        dynamicStartOffset(s, 2, s.globalOut(), s.globalIn(1), out));
    return write.empty() ? code : code + "\n" + write;
  });
}

void emitPad(StepView s) {
  const auto &attrs = s.op().attr<PadAttrs>();
  std::string word = s.outWord();
  s.perDevice([&](int64_t d) -> std::string {
    const Shape &in = s.inShape(0, d), &out = s.outShape(d);
    int64_t n = product(out);
    if (n == 0)
      return "";
    std::string code = "fillFrom<" + word + ", " + str(n) + ">(as<" + word + ">(" + s.outBuf() +
                       "), as<" + word + ">(" + s.inBuf(1) + "));\n";
    std::vector<int64_t> inStrides = denseStrides(in), outStrides = denseStrides(out);
    StridedWalk walk;
    for (size_t dim = 0; dim < in.size(); ++dim) {
      bool whole = wholeDim(s, d, static_cast<int64_t>(dim));
      int64_t low = whole ? attrs.edgePaddingLow[dim] : 0;
      int64_t step = (whole ? attrs.interiorPadding[dim] : 0) + 1;
      // Input index i lands at low + i * step; keep the i that land inside.
      int64_t first = low >= 0 ? 0 : (-low + step - 1) / step;
      int64_t last = in[dim] - 1;
      while (last >= first && low + last * step >= out[dim])
        --last;
      int64_t count = std::max<int64_t>(0, last - first + 1);
      walk.extents.push_back(count);
      walk.inStrides.push_back(inStrides[dim]);
      walk.outStrides.push_back(step * outStrides[dim]);
      walk.inOffset += first * inStrides[dim];
      walk.outOffset += (low + first * step) * outStrides[dim];
    }
    std::string copy = stridedCopyCall(walk, word, s.inBuf(0), s.outBuf());
    return copy.empty() ? code : code + copy;
  });
}

void emitReverse(StepView s) {
  const auto &dims = s.op().attr<ReverseAttrs>().dimensions;
  s.perDevice([&](int64_t d) {
    const Shape &in = s.inShape(0, d);
    StridedWalk walk;
    walk.extents = in;
    walk.inStrides = denseStrides(in);
    walk.outStrides = denseStrides(in);
    for (int64_t dim : dims) {
      walk.inOffset += (in[dim] - 1) * walk.inStrides[dim];
      walk.inStrides[dim] = -walk.inStrides[dim];
    }
    return stridedCopyCall(walk, s.outWord(), s.inBuf(0), s.outBuf());
  });
}

// The collectives of the graph (inside a manual computation body), on the
// local pieces; their group members hold equal-shaped pieces.

/// `codeFor(axisList, device)` per device, `axes` as the runtime's list.
template <typename Fn>
void perDeviceOnAxes(StepView s, const std::vector<std::string> &axes, Fn &&codeFor) {
  std::string list = s.context.axisList(axes);
  s.perDevice([&](int64_t d) { return codeFor(list, d); });
}

std::string runtimeType(StepView s) { return std::string(runtimeElementType(s.outType())); }

void emitAllReduce(StepView s) {
  const auto &attrs = s.op().attr<AllReduceAttrs>();
  perDeviceOnAxes(s, attrs.axes, [&](const std::string &list, int64_t d) {
    return "rt::allReduce(device, " + list + ", " + runtimeType(s) + ", " +
           runtimeReducer(attrs.reducer) + ", " + s.inBuf(0) + ", " + s.outBuf() + ", " +
           str(product(s.inShape(0, d))) + ");";
  });
}

void emitAllGather(StepView s) {
  const auto &attrs = s.op().attr<AllGatherAttrs>();
  perDeviceOnAxes(s, attrs.axes, [&](const std::string &list, int64_t d) {
    return "rt::allGather(device, " + list + ", " + runtimeType(s) + ", " +
           dimView(s.inShape(0, d), attrs.dimension) + ", " + s.inBuf(0) + ", " + s.outBuf() + ");";
  });
}

void emitReduceScatter(StepView s) {
  const auto &attrs = s.op().attr<ReduceScatterAttrs>();
  perDeviceOnAxes(s, attrs.axes, [&](const std::string &list, int64_t d) {
    return "rt::reduceScatter(device, " + list + ", " + runtimeType(s) + ", " +
           runtimeReducer(attrs.reducer) + ", " + dimView(s.inShape(0, d), attrs.dimension) + ", " +
           s.inBuf(0) + ", " + s.outBuf() + ");";
  });
}

void emitAllToAll(StepView s) {
  const auto &attrs = s.op().attr<AllToAllAttrs>();
  perDeviceOnAxes(s, attrs.axes, [&](const std::string &list, int64_t d) {
    const Shape &in = s.inShape(0, d);
    CodeWriter code;
    {
      auto scope = code.block();
      code.lines("const int64_t shape[] = {" + (in.empty() ? std::string("1") : joinInts(in)) +
                 "};");
      code.lines("rt::allToAll(device, " + list + ", " + runtimeType(s) + ", shape, " +
                 str(static_cast<int64_t>(in.size())) + ", " + str(attrs.splitDimension) + ", " +
                 str(attrs.concatDimension) + ", " + s.inBuf(0) + ", " + s.outBuf() + ");");
    }
    return code.take();
  });
}

void emitCollectivePermute(StepView s) {
  const auto &attrs = s.op().attr<CollectivePermuteAttrs>();
  perDeviceOnAxes(s, attrs.axes, [&](const std::string &list, int64_t d) {
    return "rt::collectivePermute(device, " + list + ", " + runtimeType(s) + ", " +
           str(attrs.shift) + ", " + s.inBuf(0) + ", " + s.outBuf() + ", " +
           str(product(s.inShape(0, d))) + ");";
  });
}

void emitAxisIndex(StepView s) {
  const Op &op = s.op();
  auto index = s.context.program.mesh.axisIndex(op.attr<AxisIndexAttrs>().axis);
  if (!index)
    throw GraphError(op.pointer, "axis_index names an axis that is not in the mesh");
  s.context.steps.lines("storeAt(as<int32_t>(" + s.outBuf() + "), 0, rt::axisIndex(device, " +
                        str(static_cast<int64_t>(*index)) + "));");
}

/// Sharding annotations and optimization_barrier: the result is the
/// operand's buffer.
void emitIdentity(StepView s) {
  for (size_t i = 0; i < s.step.outputs.size() && i < s.step.inputs.size(); ++i)
    s.context.steps.lines(EmitterContext::buffer(s.step.outputs[i]) + " = " +
                          EmitterContext::buffer(s.step.inputs[i]) + ";");
}

/// sharding_group and manual_computation: no data of their own (the
/// partitioner expands bodies into steps).
void emitNothing(StepView) {}

void emitCustomCall(StepView s) {
  // The target is declared in a namespace of its own and called qualified:
  // whatever its name (the verifier admits C identifiers that are no
  // keyword, reserved or library name), no name of the generated code, the
  // kernels or the runtime can capture or shadow the call. Its linker name
  // is the target itself (C linkage).
  const std::string &target = s.op().attr<CustomCallAttrs>().callTargetName;
  std::string symbol = cIdentifier(target);
  std::string declaration = "namespace shardgen_custom_call_targets {\nextern \"C\" void " +
                            symbol + "(shardgen_buffer *, int64_t, const shardgen_buffer *, " +
                            "int64_t);\n}\n";
  if (s.context.customCallDeclarations.find(declaration) == std::string::npos)
    s.context.customCallDeclarations += declaration;
  auto buffers = [&](const std::vector<SpmdValueId> &ids, int64_t d, const std::string &name) {
    std::string code;
    for (size_t i = 0; i < ids.size(); ++i) {
      const Shape &shape = s.context.localShape(ids[i], d);
      code += "const int64_t " + name + "Shape" + str(i) + "[] = {" +
              (shape.empty() ? std::string("0") : joinInts(shape)) + "};\n";
    }
    code += "shardgen_buffer " + name + "[] = {";
    for (size_t i = 0; i < ids.size(); ++i)
      code += std::string(i ? ", " : "") + "{" + EmitterContext::buffer(ids[i]) + ", " + name +
              "Shape" + str(i) + ", " + str(s.context.localShape(ids[i], d).size()) + ", " +
              std::string(runtimeElementType(s.context.elementType(ids[i]))) + "}";
    if (ids.empty())
      code += "{nullptr, nullptr, 0, SHARDGEN_F32}";
    return code + "};\n";
  };
  s.perDevice([&](int64_t d) {
    CodeWriter code;
    {
      auto scope = code.block();
      code.lines(buffers(s.step.inputs, d, "operands"));
      code.lines(buffers(s.step.outputs, d, "results"));
      code.lines("shardgen_custom_call_targets::" + symbol + "(results, " +
                 str(static_cast<int64_t>(s.step.outputs.size())) + ", operands, " +
                 str(static_cast<int64_t>(s.step.inputs.size())) + ");");
    }
    return code.take();
  });
}

} // namespace

void emitDotGeneralEpilogue(EmitterContext &context, const SpmdStep &dot, SpmdValueId result,
                            const std::string &epilogue) {
  emitDotGeneralInto(StepView{context, dot}, result, epilogue);
}

void emitCompute(EmitterContext &context, const SpmdStep &step) {
  if (context.layout(step.outputs.at(0)).isDistributed())
    return emitChunkwiseCompute(context, step);
  using Emitter = void (*)(StepView);
  static constexpr Emitter kEmitters[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, Bounds, Emit, ...)                                                 \
  &Emit,
#include "compiler/ops/Ops.def"
  };
  static_assert(std::size(kEmitters) == kNumOpKinds);
  kEmitters[static_cast<size_t>(step.op->kind)](StepView{context, step});
}

} // namespace shardgen::codegen
