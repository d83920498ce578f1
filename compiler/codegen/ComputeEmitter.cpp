// Emission of Compute steps: one graph op on local pieces. Each op becomes a
// call of a kernel template (templates/kernels/) instantiated at the local
// extents; where devices differ (uneven shards, offsets) the call is
// per-device.

#include <algorithm>
#include <string>

#include "compiler/codegen/BufferViews.h"
#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/DotOperands.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/Fusion.h"
#include "compiler/codegen/RegionEmitter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ir/Literal.h"
#include "compiler/partition/WindowHalo.h"

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

/// Copies `operand`'s local piece into `order` (a permutation of its dims),
/// into a scratch named `name`; returns the code, or "" when `order` is the
/// identity (the piece is used in place).
std::string permuteInto(const Shape &shape, const std::vector<int64_t> &order,
                        std::string_view word, int64_t width, const std::string &source,
                        const std::string &name) {
  if (isIdentityOrder(order))
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
  const DotOperandOrder order = dotOperandOrder(attrs, lhsRank, rhsRank);
  const bool transposedRhs = order.transposedRhs;
  // An input read in place as a block of a wider tensor's rows has its row
  // stride at run time (InputBinding.h); every other operand is dense.
  const InputBinding &binding = s.context.binding;
  const bool strided = binding.boundWithRowStride(s.in(0)) || binding.boundWithRowStride(s.in(1));
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
      // An operand narrower than the result (preferred_element_type) is
      // widened first: the product is computed in the result's type.
      std::string sources[2] = {s.inBuf(0), s.inBuf(1)};
      for (size_t i = 0; i < 2; ++i) {
        if (s.inType(i) == s.outType())
          continue;
        const std::string name = i == 0 ? "lhsWide" : "rhsWide";
        const int64_t count = product(s.inShape(i, d));
        code.lines("Scratch " + name + "(" + str(count * width) + ");\nconvert<" +
                   std::string(elementTag(s.inType(i))) + ", " + tag + ", " + str(count) + ">(as<" +
                   std::string(storageType(s.inType(i))) + ">(" + sources[i] + "), " + name +
                   ".as<" + word + ">());");
        sources[i] = name + ".data";
      }
      std::string lhsCode = permuteInto(lhs, order.lhs, word, width, sources[0], "lhs");
      std::string rhsCode = permuteInto(rhs, order.rhs, word, width, sources[1], "rhs");
      code.lines(lhsCode + rhsCode);
      std::string operands[2] = {
          "as<" + word + ">(" + (lhsCode.empty() ? sources[0] : "lhs.data") + ")",
          "as<" + word + ">(" + (rhsCode.empty() ? sources[1] : "rhs.data") + ")"};
      if (strided) { // each operand followed by its row stride
        const int64_t denseStride[2] = {k, transposedRhs ? k : n};
        for (size_t i = 0; i < 2; ++i) {
          const bool inPlace = binding.boundWithRowStride(s.in(i));
          SHARDGEN_CHECK(!inPlace || (sources[i] == s.inBuf(i) && (i ? rhsCode : lhsCode).empty()),
                         "a dot operand read with a row stride is copied");
          // In place: the distance from the piece to its second row, whose
          // pointer the binding keeps in the value's row slot.
          operands[i] += ", " + (inPlace ? "(" + EmitterContext::buffer(binding.rowSlot[s.in(i)]) +
                                               " - " + s.inBuf(i) + ") / " + str(width)
                                         : str(denseStride[i]));
        }
      }
      code.lines(std::string(strided ? "dotGeneralStrided<" : "dotGeneral<") + tag + ", " +
                 str(batch) + ", " + str(m) + ", " + str(n) + ", " + str(k) +
                 (transposedRhs ? ", true" : "") + ">(" + operands[0] + ", " + operands[1] +
                 ", as<" + word + ">(" + EmitterContext::buffer(result >= 0 ? result : s.out()) +
                 ")" + (epilogue.empty() ? "" : ", " + epilogue) + ");");
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

/// A view (BufferViews.h): device d's result points `offset` (an
/// expression, in words of the result's storage) into the operand's buffer.
std::string viewPointer(StepView s, int64_t d, const std::string &offset) {
  if (offset == "0" || product(s.outShape(d)) == 0) // (no offset past an empty piece)
    return s.outBuf() + " = " + s.inBuf(0) + ";";
  return s.outBuf() + " = " + s.inBuf(0) + " + (" + offset + ") * sizeof(" + s.outWord() + ");";
}

/// A view of its operand: a piece's bytes are the operand piece's.
void emitReshape(StepView s) { s.context.steps.lines(viewPointer(s, 0, "0")); }

/// bitcast_convert: the local piece's bytes are the result piece's (the
/// minor dim a width change adds or removes is never split: its rule
/// replicates it); between i1 and a wider type, its bits.
void emitBitcastConvert(StepView s) {
  const ElementType in = s.inType(0), out = s.outType();
  if ((in == ElementType::I1) != (out == ElementType::I1)) {
    const bool pack = in == ElementType::I1;
    const ElementType wide = pack ? out : in;
    const std::string w(storageType(wide));
    const std::string bits = str(static_cast<int64_t>(elementByteWidth(wide) * 8));
    return s.perDevice([&](int64_t d) {
      const std::string n = str(product(pack ? s.outShape(d) : s.inShape(0, d)));
      return pack ? "packBits<" + w + ", " + bits + ", " + n + ">(as<uint8_t>(" + s.inBuf(0) +
                        "), as<" + w + ">(" + s.outBuf() + "));"
                  : "unpackBits<" + w + ", " + bits + ", " + n + ">(as<" + w + ">(" + s.inBuf(0) +
                        "), as<uint8_t>(" + s.outBuf() + "));";
    });
  }
  s.perDevice([&](int64_t d) {
    StridedWalk walk;
    walk.extents = {product(s.outShape(d)) * static_cast<int64_t>(elementByteWidth(s.outType()))};
    walk.inStrides = walk.outStrides = {1};
    return stridedCopyCall(walk, "uint8_t", s.inBuf(0), s.outBuf());
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

/// sort on local pieces (the sorted dim is whole on every device): the
/// comparator as a scalar body, inlined into sortSlices' comparison.
void emitSort(StepView s) {
  const Op &op = s.op();
  const std::string body = scalarBodyStruct(s.context, *op.body());
  const size_t count = s.step.inputs.size();
  const int64_t dim = op.attr<SortAttrs>().sortedDim(static_cast<int64_t>(s.globalIn(0).size()));
  s.perDevice([&](int64_t d) -> std::string {
    const Shape in = s.inShape(0, d);
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < dim; ++k)
      outer *= in[k];
    for (int64_t k = dim + 1; k < static_cast<int64_t>(in.size()); ++k)
      inner *= in[k];
    if (product(in) == 0)
      return "";
    CodeWriter code;
    {
      auto scope = code.block();
      std::string fields, comparands, loads, stores;
      for (size_t i = 0; i < count; ++i) {
        const std::string k = str(static_cast<int64_t>(i));
        const std::string storage(storageType(s.inType(i)));
        code.lines("const auto *in" + k + " = as<" + storage + ">(" + s.inBuf(i) + ");");
        code.lines("auto *out" + k + " = as<" + storage + ">(" + s.outBuf(i) + ");");
        fields += " " + storage + " v" + k + ";";
        comparands += "a.v" + k + ", b.v" + k + ", ";
        loads += " r.v" + k + " = loadAt(in" + k + ", at);";
        stores += " storeAt(out" + k + ", at, r.v" + k + ");";
      }
      code.lines("struct Record {" + fields + " };");
      code.lines("sortSlices<" + str(outer) + ", " + str(in[dim]) + ", " + str(inner) +
                 ", Record>(");
      code.lines("    [](const Record &a, const Record &b) { uint8_t less; " + body + "::apply(" +
                 comparands + "less); return less != 0; },");
      code.lines("    [&](int64_t at, Record &r) {" + loads + " },");
      code.lines("    [&](int64_t at, const Record &r) {" + stores + " });");
    }
    return code.take();
  });
}

/// top_k on local pieces: a heap per row. With its last dim sharded (a
/// piece of the row) the indices are made global; with two inputs (the
/// gathered candidates and their indices) each pick's index is its
/// candidate's (SpmdProgram.h).
void emitTopK(StepView s) {
  const int64_t k = s.op().attr<TopKAttrs>().k;
  const std::string storage(storageType(s.inType(0)));
  const ShardLayout &in = s.context.layout(s.in(0));
  const int64_t last = in.rank() - 1;
  const bool merge = s.step.inputs.size() == 2, piece = !merge && in.numShards(last) > 1;
  const auto codeFor = [&](int64_t d) -> std::string {
    const Shape shape = s.inShape(0, d);
    if (product(s.outShape(d)) == 0)
      return "";
    const int64_t rows = product(shape) / shape.back();
    std::string code = "topK<" + std::string(elementTag(s.inType(0))) + ", " + str(rows) + ", " +
                       str(shape.back()) + ", " + str(k) + ">(as<" + storage + ">(" + s.inBuf(0) +
                       "), as<" + storage + ">(" + s.outBuf(0) + "), as<int32_t>(" + s.outBuf(1) +
                       "));";
    const std::string picked = "as<int32_t>(" + s.outBuf(1) + ")";
    if (merge)
      code += "\nfor (int64_t r = 0; r < " + str(rows) + "; ++r)\n  for (int64_t j = 0; j < " +
              str(k) + "; ++j)\n    " + picked + "[r * " + str(k) + " + j] = as<int32_t>(" +
              s.inBuf(1) + ")[r * " + str(shape.back()) + " + " + picked + "[r * " + str(k) +
              " + j]];";
    if (piece && in.offset(d, last) != 0)
      code += "\nfor (int64_t i = 0; i < " + str(rows * k) + "; ++i)\n  " + picked +
              "[i] += " + str(in.offset(d, last)) + ";";
    return code;
  };
  s.perDevice(codeFor, piece);
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
  const bool view = viewOf(s.context.program, s.step, 0).has_value();
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
    if (view) // whole leading rows: no copy
      return viewPointer(s, d, str(walk.inOffset));
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
  const bool view = viewOf(s.context.program, s.step, 0).has_value();
  s.perDevice([&](int64_t d) {
    const Shape &in = s.inShape(0, d), &out = s.outShape(d);
    if (view) // whole leading rows: no copy
      return viewPointer(s, d, dynamicStartOffset(s, 1, s.globalIn(0), s.globalOut(), in));
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

// ---- gather and scatter ----

/// "{a, b, c}" (one 0 for an empty list: the kernels' arrays hold one
/// entry at least).
std::string arrayText(const std::vector<int64_t> &values) {
  std::string text;
  for (int64_t v : values)
    text += (text.empty() ? "" : ", ") + str(v);
  return "{" + (text.empty() ? std::string("0") : text) + "}";
}

/// The plan gather and scatter share on one device's pieces: the batch
/// dims of the slices (gather's result, scatter's updates), the start
/// indices and the window (per operand dim its extent in the slices, 1
/// for a collapsed or batching dim, and its strides).
struct IndexedPlan {
  std::vector<int64_t> batchExtents, batchIndexStrides, batchOperandStrides, batchSliceStrides;
  std::vector<int64_t> startOffsets, startStrides, startLast, startFirst, startLimit, startSizes,
      startDims;
  bool partial = false;
  StridedWalk window; // in: the operand, out: the slices, one dim per operand dim

  std::string batchType() const {
    const std::string b = str(static_cast<int64_t>(batchExtents.size()));
    return b + ", IndexBatch<" + b + ">{" + arrayText(batchExtents) + ", " +
           arrayText(batchIndexStrides) + ", " + arrayText(batchOperandStrides) + ", " +
           arrayText(batchSliceStrides) + "}";
  }
  std::string startsType() const {
    const std::string k = str(static_cast<int64_t>(startOffsets.size()));
    return k + ", IndexStarts<" + k + ">{" + arrayText(startOffsets) + ", " +
           arrayText(startStrides) + ", " + arrayText(startLast) + ", " + arrayText(startFirst) +
           ", " + arrayText(startLimit) + ", " + arrayText(startSizes) + ", " +
           arrayText(startDims) + ", " + (partial ? "true" : "false") + "}";
  }
};

/// `operand`, `indices`, `slices`: one device's local shapes; `windowSizes`:
/// per operand dim the window's local extent. Sharded dims are those the
/// partitioning rule lets pass (partitioningRuleFor): the indices read
/// positions in whole dims.
IndexedPlan indexedPlan(const Shape &operand, const Shape &indices, const Shape &slices,
                        const std::vector<int64_t> &offsetDims,
                        const std::vector<int64_t> &collapsedDims,
                        const std::vector<int64_t> &operandBatching,
                        const std::vector<int64_t> &indicesBatching,
                        const std::vector<int64_t> &indexMap, int64_t indexVectorDim,
                        const std::vector<int64_t> &windowSizes) {
  auto has = [](const std::vector<int64_t> &list, int64_t v) {
    return std::find(list.begin(), list.end(), v) != list.end();
  };
  const std::vector<int64_t> operandStrides = denseStrides(operand),
                             indexStrides = denseStrides(indices),
                             sliceStrides = denseStrides(slices);
  const int64_t indicesRank = static_cast<int64_t>(indices.size());
  IndexedPlan plan;
  int64_t batch = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(slices.size()); ++d) {
    if (has(offsetDims, d))
      continue;
    const int64_t indexDim = batch < indexVectorDim ? batch : batch + 1;
    ++batch;
    const auto explicitBatch = std::find(indicesBatching.begin(), indicesBatching.end(), indexDim);
    plan.batchExtents.push_back(slices[d]);
    plan.batchIndexStrides.push_back(indexStrides[indexDim]);
    plan.batchOperandStrides.push_back(
        explicitBatch == indicesBatching.end()
            ? 0
            : operandStrides[operandBatching[explicitBatch - indicesBatching.begin()]]);
    plan.batchSliceStrides.push_back(sliceStrides[d]);
  }
  for (size_t k = 0; k < indexMap.size(); ++k) {
    const int64_t d = indexMap[k];
    plan.startOffsets.push_back(
        indexVectorDim < indicesRank ? static_cast<int64_t>(k) * indexStrides[indexVectorDim] : 0);
    plan.startStrides.push_back(operandStrides[d]);
    plan.startLast.push_back(operand[d] - windowSizes[d]);
    plan.startFirst.push_back(0);
    plan.startLimit.push_back(operand[d] - windowSizes[d]);
    plan.startSizes.push_back(operand[d]);
    plan.startDims.push_back(d);
  }
  size_t window = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(operand.size()); ++d) {
    const bool dropped = has(collapsedDims, d) || has(operandBatching, d);
    plan.window.extents.push_back(dropped ? 1 : windowSizes[d]);
    plan.window.inStrides.push_back(operandStrides[d]);
    plan.window.outStrides.push_back(dropped ? 0 : sliceStrides[offsetDims[window++]]);
  }
  return plan;
}

/// A window dim whose slice is the whole global dim takes the whole local
/// dim (it may be sharded); the others are whole on every device.
std::vector<int64_t> localWindowSizes(const Shape &local, const Shape &global,
                                      const std::vector<int64_t> &sizes) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < local.size(); ++d)
    out.push_back(sizes[d] == global[d] ? local[d] : sizes[d]);
  return out;
}

void emitGather(StepView s) {
  const auto &attrs = s.op().attr<GatherAttrs>();
  const GatherDimensionNumbers &n = attrs.dimensionNumbers;
  const std::string index(storageType(s.inType(1))), word = s.outWord();
  const ShardLayout &operandLayout = s.context.layout(s.in(0));
  const Shape &global = s.globalIn(0);
  s.perDevice(
      [&](int64_t d) -> std::string {
        const Shape operand = s.inShape(0, d), out = s.outShape(d);
        if (product(out) == 0)
          return "";
        IndexedPlan plan =
            indexedPlan(operand, s.inShape(1, d), out, n.offsetDims, n.collapsedSliceDims,
                        n.operandBatchingDims, n.startIndicesBatchingDims, n.startIndexMap,
                        n.indexVectorDim, localWindowSizes(operand, global, attrs.sliceSizes));
        // A dim sharded under a slice of size 1 (a reduction factor): this
        // piece gathers the starts it holds, the others add nothing.
        bool owned = true;
        for (size_t dim = 0; dim < operand.size(); ++dim) {
          const bool batching =
              std::find(n.operandBatchingDims.begin(), n.operandBatchingDims.end(), dim) !=
              n.operandBatchingDims.end();
          if (batching || operand[dim] == global[dim] || attrs.sliceSizes[dim] == global[dim])
            continue;
          const int64_t first = operandLayout.offset(d, static_cast<int64_t>(dim));
          const auto k = std::find(n.startIndexMap.begin(), n.startIndexMap.end(), dim);
          if (k == n.startIndexMap.end()) {
            owned = owned && first == 0 && operand[dim] > 0;
            continue;
          }
          const size_t i = static_cast<size_t>(k - n.startIndexMap.begin());
          plan.partial = true;
          plan.startLast[i] = global[dim] - attrs.sliceSizes[dim];
          plan.startFirst[i] = first;
          plan.startLimit[i] = operand[dim] - attrs.sliceSizes[dim];
        }
        const std::string zero = sumIdentityWord(s.outType());
        if (!owned)
          return "fill<" + word + ", " + str(product(out)) + ">(as<" + word + ">(" + s.outBuf() +
                 "), " + zero + ");";
        StridedWalk window = plan.window.simplified();
        if (window.extents.empty())
          window = StridedWalk{{1}, {0}, {0}};
        return "gather<" + word + ", " + index + ", " + plan.batchType() + ", " +
               plan.startsType() + ", " + str(static_cast<int64_t>(window.extents.size())) + ", " +
               window.print() + ", " + zero + ">(as<" + word + ">(" + s.inBuf(0) + "), as<" +
               index + ">(" + s.inBuf(1) + "), as<" + word + ">(" + s.outBuf() + "));";
      },
      true);
}

/// What a scatter's results start from: a copy of each input, or on a piece
/// of a scatter-add split over its updates (partial; `first` false) the
/// sum's identity, which the later reduction adds to the first piece's.
std::string scatterStart(StepView s, size_t numInputs, int64_t elements, bool first) {
  std::string code;
  for (size_t i = 0; i < numInputs; ++i) {
    const std::string word(storageWord(s.outType(i))), storage(storageType(s.outType(i)));
    code += std::string(i ? "\n" : "") +
            (!first ? "fill<" + word + ", " + str(elements) + ">(as<" + word + ">(" + s.outBuf(i) +
                          "), " + sumIdentityWord(s.outType(i)) + ");"
                    : "copy<" + storage + ", " + str(elements) + ">(as<" + storage + ">(" +
                          s.inBuf(i) + "), as<" + storage + ">(" + s.outBuf(i) + "));");
  }
  return code;
}

/// A scatter of several inputs: the body combines all N at each place at
/// once (`templateArgs`: the index type and the geometry).
std::string variadicScatterCall(StepView s, size_t numInputs, const std::string &body,
                                const std::string &templateArgs, const std::string &indices) {
  const size_t updatesAt = numInputs + 1;
  std::string pointers, current, updated, results, stores;
  for (size_t i = 0; i < numInputs; ++i) {
    const std::string k = str(static_cast<int64_t>(i)), storage(storageType(s.outType(i)));
    pointers += "  const auto *u" + k + " = as<" + storage + ">(" + s.inBuf(updatesAt + i) +
                ");\n  auto *r" + k + " = as<" + storage + ">(" + s.outBuf(i) + ");\n";
    current += "loadAt(r" + k + ", o), ";
    updated += "loadAt(u" + k + ", u), ";
    results += (i ? ", c" : "c") + k;
    stores += "    " + storage + " c" + k + ";\n";
  }
  std::string apply = "    " + body + "::apply(" + current + updated + results + ");\n";
  for (size_t i = 0; i < numInputs; ++i) {
    const std::string k = str(static_cast<int64_t>(i));
    apply += "    storeAt(r" + k + ", o, c" + k + ");\n";
  }
  return "{\n" + pointers + "  forEachScatterPlace<" + templateArgs + ">(" + indices +
         ", [&](int64_t u, int64_t o) {\n" + stores + apply + "  });\n}";
}

void emitScatter(StepView s) {
  const ScatterDimensionNumbers &n = s.op().attr<ScatterAttrs>().dimensionNumbers;
  const size_t numInputs = s.step.outputs.size();
  const size_t indicesAt = numInputs, updatesAt = numInputs + 1;
  const std::string index(storageType(s.inType(indicesAt)));
  const std::string body = scalarBodyStruct(s.context, *s.op().body());
  const std::vector<AxisRef> &partial = s.context.layout(s.out()).partialAxes;
  const Mesh &mesh = s.context.program.mesh;
  auto firstPiece = [&](int64_t d) {
    return partial.empty() || indexOverAxes(mesh, partial, d) == 0;
  };
  std::vector<SpmdValueId> ids = s.step.inputs;
  ids.insert(ids.end(), s.step.outputs.begin(), s.step.outputs.end());
  const ShardLayout &inputLayout = s.context.layout(s.in(0));
  auto keyOf = [&](int64_t d, std::vector<int64_t> &key) {
    s.context.pieceKey(ids, d, key, true);
    key.push_back(firstPiece(d) ? 1 : 0);
  };
  s.context.addPerDevice(keyOf, [&](int64_t d) -> std::string {
    const Shape input = s.inShape(0, d), updates = s.inShape(updatesAt, d);
    if (product(input) == 0)
      return "";
    std::string code = scatterStart(s, numInputs, product(input), firstPiece(d));
    if (product(updates) == 0)
      return code;
    // The window's extent per input dim: its update window dim's.
    std::vector<int64_t> windowSizes(input.size(), 1);
    size_t window = 0;
    for (size_t dim = 0; dim < input.size(); ++dim)
      if (std::find(n.insertedWindowDims.begin(), n.insertedWindowDims.end(), dim) ==
              n.insertedWindowDims.end() &&
          std::find(n.inputBatchingDims.begin(), n.inputBatchingDims.end(), dim) ==
              n.inputBatchingDims.end())
        windowSizes[dim] = updates[n.updateWindowDims[window++]];
    IndexedPlan plan =
        indexedPlan(input, s.inShape(indicesAt, d), updates, n.updateWindowDims,
                    n.insertedWindowDims, n.inputBatchingDims, n.scatterIndicesBatchingDims,
                    n.scatterDimsToOperandDims, n.indexVectorDim, windowSizes);
    // An inserted window dim may be sharded: the piece takes the updates
    // landing in it.
    for (size_t k = 0; k < plan.startDims.size(); ++k)
      plan.startFirst[k] = inputLayout.offset(d, plan.startDims[k]);
    // The kernel walks the window per input dim: in the updates (in), the
    // input (out).
    StridedWalk walk{plan.window.extents, plan.window.outStrides, plan.window.inStrides};
    if (walk.extents.empty())
      walk = StridedWalk{{1}, {0}, {0}};
    const std::string geometry = plan.batchType() + ", " + plan.startsType() + ", " +
                                 str(static_cast<int64_t>(walk.extents.size())) + ", " +
                                 walk.print();
    const std::string indices = "as<" + index + ">(" + s.inBuf(indicesAt) + ")";
    if (numInputs == 1)
      return code + "\nscatter<" + s.outStorage() + ", " + index + ", " + body + ", " + geometry +
             ">(" + indices + ", as<" + s.outStorage() + ">(" + s.inBuf(updatesAt) + "), as<" +
             s.outStorage() + ">(" + s.outBuf() + "));";
    return code + "\n" + variadicScatterCall(s, numInputs, body, index + ", " + geometry, indices);
  });
}

// ---- windows (templates/kernels/window.h) ----

std::string boolList(const std::vector<bool> &values) {
  std::string out;
  for (bool value : values)
    out += std::string(out.empty() ? "" : ", ") + (value ? "true" : "false");
  return out;
}

/// WindowGeometry<R>{...} of a window over the local pieces `in` (the
/// input) and `out` (the windows): the windowed dims are whole on every
/// device (the sharding rule's permutation factors), the others pass
/// through. A rank-0 op is given one dim of 1.
std::string windowGeometry(Shape in, Shape out, std::vector<int64_t> size,
                           std::vector<int64_t> stride, std::vector<int64_t> baseDilation,
                           std::vector<int64_t> windowDilation,
                           const std::vector<std::array<int64_t, 2>> &padding) {
  std::vector<int64_t> low;
  for (const auto &pair : padding)
    low.push_back(pair[0]);
  if (in.empty()) {
    for (std::vector<int64_t> *list : {&in, &out, &size, &stride, &baseDilation, &windowDilation})
      list->push_back(1);
    low.push_back(0);
  }
  return "WindowGeometry<" + str(static_cast<int64_t>(in.size())) + ">{{" + joinInts(in) + "}, {" +
         joinInts(out) + "}, {" + joinInts(size) + "}, {" + joinInts(stride) + "}, {" +
         joinInts(baseDilation) + "}, {" + joinInts(windowDilation) + "}, {" + joinInts(low) + "}}";
}

/// The padding device `d`'s windowed op takes on its pieces (the
/// attribute's on whole dims; WindowHalo.h).
std::vector<std::array<int64_t, 2>> devicePadding(StepView s, int64_t d) {
  return localWindowPadding(*s.context.program.graph, s.op(), s.context.layout(s.in(0)),
                            s.context.layout(s.out()), d);
}

/// Whether a windowed op's code depends on where its pieces lie (its
/// padding on a cut windowed dim), not on their shapes alone.
bool windowsCut(StepView s) {
  return cutsWindowedDims(*s.context.program.graph, s.op(), s.context.layout(s.in(0)));
}

std::string windowRank(const Shape &shape) {
  return str(std::max<int64_t>(1, static_cast<int64_t>(shape.size())));
}

/// reduce_window of N inputs: walkWindows with N accumulators, each window
/// folded by the body from the inits (padding and holes read the inits).
void emitReduceWindow(StepView s) {
  const auto &attrs = s.op().attr<ReduceWindowAttrs>();
  const std::string body = scalarBodyStruct(s.context, *s.op().body());
  const size_t n = s.step.outputs.size();
  const auto codeFor = [&](int64_t d) -> std::string {
    const Shape in = s.inShape(0, d), out = s.outShape(d);
    if (product(out) == 0)
      return "";
    CodeWriter code;
    std::string accumulators, elements, start, finish;
    {
      auto scope = code.block();
      for (size_t i = 0; i < n; ++i) {
        const std::string k = str(static_cast<int64_t>(i));
        const std::string storage(storageType(s.outType(i)));
        code.lines("const auto *in" + k + " = as<" + storage + ">(" + s.inBuf(i) + ");");
        code.lines("auto *out" + k + " = as<" + storage + ">(" + s.outBuf(i) + ");");
        code.lines("const " + storage + " init" + k + " = loadAt(as<" + storage + ">(" +
                   s.inBuf(n + i) + "), 0);");
        code.lines(storage + " acc" + k + " = init" + k + ";");
        accumulators += "acc" + k + ", ";
        elements += "offset < 0 ? init" + k + " : loadAt(in" + k + ", offset), ";
        start += "acc" + k + " = init" + k + "; ";
        finish += "storeAt(out" + k + ", window, acc" + k + "); ";
      }
      accumulators.resize(accumulators.size() - 2);
      code.lines("walkWindows<" + windowRank(in) + ", " +
                 windowGeometry(in, out, attrs.windowDimensions, attrs.windowStrides,
                                attrs.baseDilations, attrs.windowDilations, devicePadding(s, d)) +
                 ">(");
      code.lines("    [&](int64_t) { " + start + "},");
      code.lines("    [&](int64_t offset) { " + body + "::apply(" + accumulators + ", " + elements +
                 accumulators + "); },");
      code.lines("    [&](int64_t window) { " + finish + "});");
    }
    return code.take();
  };
  s.perDevice(codeFor, windowsCut(s));
}

void emitSelectAndScatter(StepView s) {
  const auto &attrs = s.op().attr<SelectAndScatterAttrs>();
  const std::string select = scalarBodyStruct(s.context, s.op().regions[0]);
  const std::string scatter = scalarBodyStruct(s.context, s.op().regions[1]);
  const std::string storage = s.outStorage();
  const std::vector<int64_t> ones(attrs.windowDimensions.size(), 1);
  s.perDevice([&](int64_t d) -> std::string {
    const Shape in = s.inShape(0, d), windows = s.inShape(1, d);
    if (product(in) == 0)
      return "";
    return "selectAndScatter<" + select + ", " + scatter + ", " + storage + ", " +
           std::string(storageType(ElementType::I1)) + ", " + windowRank(in) + ", " +
           windowGeometry(in, windows, attrs.windowDimensions, attrs.windowStrides, ones, ones,
                          attrs.padding) +
           ">(as<" + storage + ">(" + s.inBuf(0) + "), as<" + storage + ">(" + s.inBuf(1) +
           "), as<" + storage + ">(" + s.inBuf(2) + "), as<" + storage + ">(" + s.outBuf() + "));";
  });
}

/// Whether convolutionLowered (the blocked f32 matmul's micro-kernel,
/// reading the lhs windows in place) applies: f32 without groups, an NHWC
/// lhs and output and an HWIO kernel (each spatial dim in order), so the
/// kernel is the matmul's B as it lies.
bool loweredToMatmul(const ConvolutionAttrs &a, ElementType in, ElementType out, size_t rank) {
  if (in != out || in != ElementType::F32 || a.featureGroupCount != 1 || a.batchGroupCount != 1 ||
      rank < 3)
    return false;
  const int64_t spatial = static_cast<int64_t>(rank) - 2;
  bool ordered = a.inputFeatureDimension == spatial + 1 && a.outputBatchDimension == 0 &&
                 a.outputFeatureDimension == spatial + 1 &&
                 a.kernelInputFeatureDimension == spatial &&
                 a.kernelOutputFeatureDimension == spatial + 1;
  for (int64_t i = 0; i < spatial; ++i)
    ordered = ordered && a.kernelSpatialDimensions[i] == i && a.outputSpatialDimensions[i] == i + 1;
  return ordered;
}

void emitConvolution(StepView s) {
  const auto &a = s.op().attr<ConvolutionAttrs>();
  const std::string inTag(elementTag(s.inType(0))), outTag(elementTag(s.outType()));
  const std::string inStorage(storageType(s.inType(0))), storage = s.outStorage();
  const auto codeFor = [&](int64_t d) -> std::string {
    const Shape lhs = s.inShape(0, d), rhs = s.inShape(1, d), out = s.outShape(d);
    if (product(out) == 0)
      return "";
    const std::vector<int64_t> ls = denseStrides(lhs), rs = denseStrides(rhs),
                               os = denseStrides(out);
    std::vector<int64_t> lhsStride, lhsSpatial, kernelStride, window, outStride, outSpatial,
        stride = a.windowStrides, lhsDilation = a.lhsDilation, rhsDilation = a.rhsDilation, low;
    std::vector<bool> reversed = a.windowReversal;
    const std::vector<std::array<int64_t, 2>> padding = devicePadding(s, d);
    for (size_t i = 0; i < a.inputSpatialDimensions.size(); ++i) {
      lhsStride.push_back(ls[a.inputSpatialDimensions[i]]);
      lhsSpatial.push_back(lhs[a.inputSpatialDimensions[i]]);
      kernelStride.push_back(rs[a.kernelSpatialDimensions[i]]);
      window.push_back(rhs[a.kernelSpatialDimensions[i]]);
      outStride.push_back(os[a.outputSpatialDimensions[i]]);
      outSpatial.push_back(out[a.outputSpatialDimensions[i]]);
      low.push_back(padding[i][0]);
    }
    if (window.empty()) { // one spatial dim of 1
      for (std::vector<int64_t> *list :
           {&lhsStride, &lhsSpatial, &kernelStride, &window, &outStride, &outSpatial, &stride,
            &lhsDilation, &rhsDilation})
        list->push_back(1);
      low.push_back(0);
      reversed.push_back(false);
    }
    const int64_t outFeatures = out[a.outputFeatureDimension];
    const std::string geometry =
        "ConvGeometry<" + str(static_cast<int64_t>(window.size())) + ">{" +
        joinInts({out[a.outputBatchDimension], outFeatures, rhs[a.kernelInputFeatureDimension],
                  outFeatures / a.featureGroupCount, outFeatures / a.batchGroupCount,
                  ls[a.inputBatchDimension], ls[a.inputFeatureDimension]}) +
        ", {" + joinInts(lhsStride) + "}, {" + joinInts(lhsSpatial) + "}, " +
        joinInts({rs[a.kernelInputFeatureDimension], rs[a.kernelOutputFeatureDimension]}) + ", {" +
        joinInts(kernelStride) + "}, {" + joinInts(window) + "}, " +
        joinInts({os[a.outputBatchDimension], os[a.outputFeatureDimension]}) + ", {" +
        joinInts(outStride) + "}, {" + joinInts(outSpatial) + "}, {" + joinInts(stride) + "}, {" +
        joinInts(lhsDilation) + "}, {" + joinInts(rhsDilation) + "}, {" + joinInts(low) + "}, {" +
        boolList(reversed) + "}}";
    // The lowered path needs a kernel with elements (its row blocks are
    // sized by the window's positions); an empty one goes to the direct loops.
    if (loweredToMatmul(a, s.inType(0), s.outType(), lhs.size()) && product(rhs) > 0)
      return "convolutionLowered<" + str(static_cast<int64_t>(window.size())) + ", " + geometry +
             ">(as<float>(" + s.inBuf(0) + "), as<float>(" + s.inBuf(1) + "), as<float>(" +
             s.outBuf() + "));";
    return "convolution<" + inTag + ", " + outTag + ", " +
           str(static_cast<int64_t>(window.size())) + ", " + geometry + ">(as<" + inStorage + ">(" +
           s.inBuf(0) + "), as<" + inStorage + ">(" + s.inBuf(1) + "), as<" + storage + ">(" +
           s.outBuf() + "));";
  };
  s.perDevice(codeFor, windowsCut(s));
}

// ---- random bits (templates/kernels/rng.h) ----

/// rng_bit_generator: each device makes its piece of the output from the
/// counters of its elements' global positions, and the whole new state.
void emitRngBitGenerator(StepView s) {
  const auto &attrs = s.op().attr<RngBitGeneratorAttrs>();
  const bool threefry = attrs.algorithm() == RngAlgorithm::ThreeFry;
  const ShardLayout &layout = s.context.layout(s.out(1));
  const Shape &global = s.globalOut(1);
  const bool wide = elementByteWidth(s.outType(1)) == 8;
  const int64_t count = product(global);
  const int64_t split = threefrySplitDim(global);
  // Blocks the whole output uses: the counter's advance.
  int64_t advance = 0;
  if (!threefry) {
    advance = ((wide ? 2 : 1) * count + 3) / 4;
  } else if (wide) {
    advance = count;
  } else {
    advance = global.empty()
                  ? 1
                  : count / std::max<int64_t>(global[split], 1) * ((global[split] + 1) / 2);
  }
  const int64_t stateSize = s.globalIn(0).at(0);
  const std::string word(storageWord(s.outType(1)));
  s.perDevice(
      [&](int64_t d) -> std::string {
        // A scalar is one element of rank 1.
        const bool scalar = global.empty();
        const Shape dims = scalar ? Shape{1} : global;
        const Shape offsets = scalar ? Shape{0} : layout.offsetsOf(d);
        const Shape extents = scalar ? Shape{1} : s.outShape(d, 1);
        return "rngBitGenerator<" + word + ", " + str(threefry ? 0 : 1) + ", " + str(stateSize) +
               ", " + str(static_cast<int64_t>(dims.size())) + ", RngPiece<" +
               str(static_cast<int64_t>(dims.size())) + ">{{" + joinInts(dims) + "}, {" +
               joinInts(offsets) + "}, {" + joinInts(extents) + "}}, " + str(split) + ", " +
               std::to_string(static_cast<uint64_t>(advance)) + "ull>(as<uint64_t>(" + s.inBuf(0) +
               "), as<uint64_t>(" + s.outBuf(0) + "), as<" + word + ">(" + s.outBuf(1) + "));";
      },
      true);
}

// ---- Fourier transforms (templates/kernels/fft.h) ----

/// fft on local pieces: the transform's dims are whole on every device
/// (its sharding rule needs them replicated); each device transforms the
/// blocks of its batch indices.
void emitFft(StepView s) {
  const auto &attrs = s.op().attr<FftAttrs>();
  const FftType type = attrs.type();
  const auto rank = static_cast<int64_t>(attrs.fftLength.size());
  const std::string part(storageType(complexPartType(s.outType())));
  s.perDevice([&](int64_t d) -> std::string {
    const Shape in = s.inShape(0, d), out = s.outShape(d);
    if (product(in) == 0 || product(out) == 0)
      return "";
    // The real side holds the lengths: IRFFT's result, the operand otherwise.
    const Shape &real = type == FftType::Irfft ? out : in;
    int64_t block = 1;
    for (int64_t i = 0; i < rank; ++i) {
      const int64_t length = real[real.size() - static_cast<size_t>(rank - i)];
      SHARDGEN_CHECK(length == attrs.fftLength[static_cast<size_t>(i)],
                     "an fft's transformed dim is not whole on a device");
      block *= length;
    }
    const int64_t batch = product(real) / block;
    return "{ static constexpr int64_t kLengths[] = {" + joinInts(attrs.fftLength) +
           "}; fftBlocks<" + part + ", " + str(static_cast<int64_t>(type)) + ">(as<" +
           std::string(storageType(s.inType(0))) + ">(" + s.inBuf(0) + "), as<" + s.outStorage() +
           ">(" + s.outBuf() + "), " + str(batch) + ", " + str(rank) + ", kLengths); }";
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
