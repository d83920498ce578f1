// Emission of the partitioner's transfer steps, after their step-by-step
// semantics (SpmdProgram.h), which body collectives and reshard steps share.
// Where every group holds equal pieces over whole mesh axes, the step calls
// the runtime's collective. Otherwise (uneven or empty pieces, sub-axes,
// explicit device pairs, broadcasts) the pieces are all-gathered into
// equal-size slots, padded, over the whole axes holding every source (a
// sub-axis' whole axis), else the whole mesh, and each device assembles its
// result from the slots with compile-time box copies (TransferRecipe).

#include <algorithm>
#include <optional>
#include <string>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/PieceIndexing.h"
#include "compiler/codegen/RegionEmitter.h"
#include "compiler/codegen/TransferRecipe.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::codegen {

namespace {

bool allFullAxes(const std::vector<AxisRef> &axes) {
  return std::none_of(axes.begin(), axes.end(), [](const AxisRef &a) { return a.isSubAxis(); });
}

struct TransferEmitter {
  EmitterContext &context;
  const SpmdStep &step;
  const Mesh &mesh = context.program.mesh;
  const ShardLayout &in = context.layout(step.inputs.at(0));
  const ShardLayout &out = context.layout(step.outputs.at(0));
  ElementType type = in.globalType.elementType;
  std::string word{storageWord(type)};
  std::string elementType{runtimeElementType(type)};
  int64_t width = static_cast<int64_t>(elementByteWidth(type));
  mutable std::vector<TransferRecipe> recipes{}; // per device, filled on first use

  /// Device d's recipe (all devices' are built on the first call: the
  /// runtime collectives need none, so most steps never build them).
  const TransferRecipe &recipe(int64_t d) const {
    if (recipes.empty())
      recipes = transferRecipes(context.program, step);
    return recipes[d];
  }

  std::string inBuf() const { return EmitterContext::buffer(step.inputs[0]); }
  std::string outBuf() const { return EmitterContext::buffer(step.outputs[0]); }
  int64_t devices() const { return context.numDevices(); }

  /// The runtime's list of `axes` (whole mesh axes).
  std::string axisList(const std::vector<AxisRef> &axes) {
    std::vector<std::string> names;
    for (const AxisRef &axis : axes)
      names.push_back(axis.name);
    return context.axisList(names);
  }

  std::string comment() const {
    std::string text = "// " + std::string(stepKindName(step.kind)) +
                       (isBodyCollective(step) ? " (body collective)" : "") + " of " +
                       context.program.values[step.inputs[0]].name + " over {";
    for (size_t i = 0; i < step.axes.size(); ++i)
      text += (i ? ", " : "") + printAxisRef(step.axes[i]);
    text += "}";
    if (!step.pointer.empty())
      text += " for " + step.pointer;
    return commentText(text);
  }

  /// The runtime's collectives need whole mesh axes and, within each group,
  /// pieces of one shape.
  bool groupsHoldEqualPieces() const {
    if (!allFullAxes(step.axes))
      return false;
    // Equality is transitive: comparing each device with its group's first suffices.
    for (int64_t d = 0; d < devices(); ++d) {
      const int64_t leader = groupLeader(mesh, step.axes, d);
      for (int64_t k = 0; k < in.rank(); ++k)
        if (in.extent(leader, k) != in.extent(d, k))
          return false;
    }
    return true;
  }

  /// The shift s when every device receives from position (p - s) mod n of
  /// its group: a collective_permute the runtime runs directly.
  std::optional<int64_t> uniformShift() const {
    std::optional<int64_t> shift;
    for (int64_t d = 0; d < devices(); ++d) {
      const TransferRecipe &recipe = this->recipe(d);
      if (recipe.zeros || recipe.copies.size() != 1)
        return std::nullopt;
      const int64_t sender = recipe.copies[0].source;
      if (groupLeader(mesh, step.axes, sender) != groupLeader(mesh, step.axes, d))
        return std::nullopt; // not in the device's group
      const int64_t n = axesSize(mesh, step.axes);
      int64_t s =
          ((indexOverAxes(mesh, step.axes, d) - indexOverAxes(mesh, step.axes, sender)) % n + n) %
          n;
      if (shift && *shift != s)
        return std::nullopt;
      shift = s;
    }
    return shift;
  }

  /// One runtime collective per device; false when the step needs slots.
  bool tryRuntimeCollective() {
    if (!groupsHoldEqualPieces())
      return false;
    std::optional<int64_t> shift;
    if (step.kind == StepKind::CollectivePermute) {
      shift = uniformShift();
      if (!shift)
        return false;
    }
    if (step.kind == StepKind::Broadcast)
      return false;
    std::string list = axisList(step.axes);
    std::string reducer = runtimeReducer(step.reducer);
    switch (step.kind) {
    case StepKind::AllGather:
    case StepKind::AllReduce:
    case StepKind::ReduceScatter:
    case StepKind::AllToAll:
    case StepKind::CollectivePermute:
      break;
    default:
      return false;
    }
    const std::string head = "(device, " + list + ", " + elementType + ", ";
    context.addPerPieceShape({step.inputs[0]}, [&](int64_t d) -> std::string {
      const Shape shape = in.extentsOf(d);
      switch (step.kind) {
      case StepKind::AllGather:
        return "rt::allGather" + head + dimView(shape, step.dimension) + ", " + inBuf() + ", " +
               outBuf() + ");";
      case StepKind::AllReduce:
        return "rt::allReduce" + head + reducer + ", " + inBuf() + ", " + outBuf() + ", " +
               str(product(shape)) + ");";
      case StepKind::ReduceScatter:
        return "rt::reduceScatter" + head + reducer + ", " + dimView(shape, step.dimension) + ", " +
               inBuf() + ", " + outBuf() + ");";
      case StepKind::AllToAll: {
        std::string shapeName = context.constant(
            "kShape", "const int64_t ",
            "[] = {" + (shape.empty() ? std::string("0") : joinInts(shape)) + "};");
        return "rt::allToAll" + head + shapeName + ", " + str(in.rank()) + ", " +
               str(step.dimension) + ", " + str(step.concatDimension) + ", " + inBuf() + ", " +
               outBuf() + ");";
      }
      default: // CollectivePermute
        return "rt::collectivePermute" + head + str(*shift) + ", " + inBuf() + ", " + outBuf() +
               ", " + str(product(shape)) + ");";
      }
    });
    return true;
  }

  /// The axes whose groups the slots gather over: the step's own, sub-axes
  /// widened to their whole axes (the runtime groups over whole axes), when
  /// every source is in the device's group over them ("model":(2)2 gathers
  /// over "model", not the mesh); else every mesh axis (slot index = mesh
  /// position).
  std::vector<AxisRef> slotAxes() const {
    std::vector<AxisRef> whole;
    for (const AxisRef &axis : step.axes)
      if (std::find(whole.begin(), whole.end(), AxisRef::full(axis.name)) == whole.end())
        whole.push_back(AxisRef::full(axis.name));
    bool withinGroups = true;
    for (int64_t d = 0; withinGroups && d < devices(); ++d) {
      const int64_t leader = groupLeader(mesh, whole, d);
      for (const PieceCopy &copy : recipe(d).copies)
        withinGroups = withinGroups && groupLeader(mesh, whole, copy.source) == leader;
    }
    if (withinGroups)
      return whole;
    std::vector<AxisRef> all;
    for (const MeshAxis &axis : mesh.axes)
      all.push_back(AxisRef::full(axis.name));
    return all;
  }

  /// Gathers every piece into equal slots over `axes`, then runs each
  /// device's assembly.
  void emitThroughSlots() {
    const std::vector<AxisRef> axes = slotAxes();
    const int64_t groupSize = axesSize(mesh, axes);
    // The largest piece is a full chunk; a device's own piece size is
    // chosen among the layout's distinct piece shapes.
    const int64_t slotBytes = std::max<int64_t>(1, product(in.chunkShape()) * width);
    std::vector<PieceClass> classes = pieceClasses(in);
    std::vector<std::string> sizes;
    for (const PieceClass &piece : classes)
      sizes.push_back(product(piece.extents) == 0
                          ? ""
                          : "pieceBytes = " + str(product(piece.extents) * width) + ";");
    CodeWriter &code = context.steps;
    auto slotsScope = code.block();
    code.lines("Scratch slots(" + str(slotBytes * groupSize) + ");");
    {
      auto gather = code.block();
      code.lines("Scratch staging(" + str(slotBytes) + ");");
      code.lines("int64_t pieceBytes = 0;");
      {
        auto sizeScope = code.block();
        code.lines(pieceLocals(mesh, in) + dispatchOnClass(classes, sizes));
      }
      code.lines("if (pieceBytes > 0)");
      code.lines("  __builtin_memcpy(staging.data, " + inBuf() + ", pieceBytes);");
      code.lines("rt::allGather(device, " + axisList(axes) + ", SHARDGEN_UI8, rt::DimView{1, " +
                 str(slotBytes) + ", 1}, staging.data, slots.data);");
    }
    // Each device's recipe names its sources' slots: built per device.
    context.addPerDevice(
        [](int64_t d, std::vector<int64_t> &key) { key.push_back(d); },
        [&](int64_t d) {
          auto slot = [&](int64_t source) {
            return "slots.data + " + str(indexOverAxes(mesh, axes, source) * slotBytes);
          };
          return isReduction(step) ? assembleReduction(d, slot) : assembleMove(d, slot);
        });
  }

  std::string copyCall(const PieceCopy &copy, const Shape &destShape, const std::string &source,
                       const std::string &dest) const {
    return stridedCopyCall(
        boxCopy(in.extentsOf(copy.source), copy.from, destShape, copy.to, copy.extents), word,
        source, dest);
  }

  template <typename Slot> std::string assembleMove(int64_t d, Slot &&slot) const {
    const Shape target = out.extentsOf(d);
    if (product(target) == 0)
      return "";
    std::string code;
    if (recipe(d).zeros)
      code += "fill<" + word + ", " + str(product(target)) + ">(as<" + word + ">(" + outBuf() +
              "), 0);\n";
    for (const PieceCopy &copy : recipe(d).copies) {
      std::string call = copyCall(copy, target, slot(copy.source), outBuf());
      if (!call.empty())
        code += call + "\n";
    }
    return code;
  }

  template <typename Slot> std::string assembleReduction(int64_t d, Slot &&slot) const {
    const Shape target = out.extentsOf(d);
    const int64_t n = product(target);
    if (n == 0)
      return "";
    const std::vector<PieceCopy> &operands = recipe(d).copies;
    std::string typed(storageType(type));
    std::string code = "Scratch parts(" + str(n * width * operands.size()) + ");\n";
    std::string pointers;
    for (size_t k = 0; k < operands.size(); ++k) {
      std::string dest = "parts.data + " + str(static_cast<int64_t>(k) * n * width);
      code += copyCall(operands[k], target, slot(operands[k].source), dest) + "\n";
      pointers += (k ? ", " : "") + std::string("as<") + typed + ">(" + dest + ")";
    }
    code += "const " + typed + " *members[] = {" + pointers + "};\n";
    code += "combine<" + std::string(elementTag(type)) + ", " +
            std::string(reducerFunctor(step.reducer)) + ", " + str(n) + ">(members, " +
            str(static_cast<int64_t>(operands.size())) + ", as<" + typed + ">(" + outBuf() + "));";
    return code;
  }

  /// Each device keeps the sub-box of its piece its output layout assigns it.
  void emitAllSlice() {
    // The code depends on the pieces' shapes and where the new piece starts
    // in the old one.
    auto from = [&](int64_t d) {
      std::vector<int64_t> start;
      for (int64_t k = 0; k < in.rank(); ++k)
        start.push_back(out.offset(d, k) - in.offset(d, k));
      return start;
    };
    context.addPerDevice(
        [&](int64_t d, std::vector<int64_t> &key) {
          context.pieceKey(step.inputs, d, key);
          context.pieceKey(step.outputs, d, key);
          for (int64_t k = 0; k < in.rank(); ++k)
            key.push_back(out.offset(d, k) - in.offset(d, k));
        },
        [&](int64_t d) -> std::string {
          const Shape target = out.extentsOf(d);
          if (product(target) == 0)
            return "";
          return stridedCopyCall(boxCopy(in.extentsOf(d), from(d), target,
                                         std::vector<int64_t>(target.size(), 0), target),
                                 word, inBuf(), outBuf());
        });
  }

  void emit() {
    context.steps.lines(comment());
    switch (step.kind) {
    case StepKind::Alias:
      context.steps.lines(outBuf() + " = " + inBuf() + ";");
      return;
    case StepKind::AllSlice:
      return emitAllSlice();
    case StepKind::RegionAllReduce:
      return emitRegionAllReduce(context, step);
    case StepKind::Compute:
      break;
    default:
      if (!tryRuntimeCollective())
        emitThroughSlots();
      return;
    }
    throw GraphError(step.pointer, "internal: not a transfer step");
  }
};

} // namespace

void emitTransfer(EmitterContext &context, const SpmdStep &step) {
  if (step.kind == StepKind::Redistribute)
    return emitRedistribute(context, step);
  TransferEmitter{context, step}.emit();
}

} // namespace shardgen::codegen
