// Assembles the generated program from its templates: the steps (compute and
// transfer emitters, fused elementwise groups), the buffer arena (slots
// reused by liveness, BufferPlan.h), scatter/gather for global tensors, and,
// for AOT, the header, host side and CMakeLists.txt.

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "compiler/codegen/AotInterface.h"
#include "compiler/codegen/BufferPlan.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/DeviceUnits.h"
#include "compiler/codegen/EmbeddedFiles.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/Fusion.h"
#include "compiler/codegen/InputBinding.h"
#include "compiler/codegen/KernelTable.h"
#include "compiler/codegen/PieceIndexing.h"
#include "compiler/codegen/TemplateText.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/partition/CollectiveTraffic.h"

namespace shardgen {
namespace {

using namespace codegen;

std::string stepComment(const SpmdProgram &program, const SpmdStep &step) {
  const Op &op = *step.op;
  std::string text = "// " + (step.pointer.empty() ? op.pointer : step.pointer) + ": ";
  auto names = [&](const std::vector<SpmdValueId> &ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i)
      out += (i ? ", " : "") + program.values[ids[i]].name;
    return out;
  };
  text += names(step.outputs) + (step.outputs.empty() ? "" : " = ") + std::string(op.name()) + "(" +
          names(step.inputs) + ")";
  return commentText(text);
}

/// For an input `binding` reads with a row stride (InputBinding.h), once
/// its value points at its piece: sets its row pointer to the piece's
/// second row, one global row on in the global style (`global`), one piece
/// row on in the per-device style; to the first element itself where the
/// piece has one row or none (no second row to point at). Code over
/// pieceLocals() when `localsInScope`, else in a block defining them if it
/// needs them; "" for other inputs.
std::string bindRowPointer(const Mesh &mesh, const ShardLayout &layout, const InputBinding &binding,
                           SpmdValueId v, bool global, bool localsInScope) {
  if (!binding.boundWithRowStride(v))
    return "";
  const int64_t split = binding.rowSplit[v];
  const int64_t width = static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
  const Shape &shape = layout.globalType.shape;
  const std::vector<PieceClass> classes = pieceClasses(layout);
  std::vector<std::string> bodies;
  for (const PieceClass &piece : classes) {
    const Shape &row = global ? shape : piece.extents;
    const int64_t rows = product(Shape(piece.extents.begin(), piece.extents.begin() + split));
    const int64_t rowBytes = product(Shape(row.begin() + split, row.end())) * width;
    bodies.push_back(EmitterContext::buffer(binding.rowSlot[v]) + " = " +
                     EmitterContext::buffer(v) +
                     (rows > 1 && product(piece.extents) > 0 ? " + " + str(rowBytes) : "") + ";");
  }
  if (std::all_of(bodies.begin(), bodies.end(),
                  [&](const std::string &body) { return body == bodies.front(); }))
    return bodies.front(); // the same on every device
  if (localsInScope)
    return dispatchOnClass(classes, bodies);
  CodeWriter out;
  {
    auto scope = out.block();
    out.lines(pieceLocals(mesh, layout) + dispatchOnClass(classes, bodies));
  }
  return out.take();
}

/// `values[v] = <the piece's first byte in the global input i>`: a
/// contiguous piece, or a row block read with a row stride, is read in
/// place (InputBinding.h).
std::string bindInPlace(const Mesh &mesh, const ShardLayout &layout, const InputBinding &binding,
                        SpmdValueId v, size_t i, const std::string &linear) {
  const std::string global = "static_cast<const unsigned char *>(inputs[" + str(i) + "])";
  const int64_t width = static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
  const std::string at = linear.empty() ? global : global + " + (" + linear + ") * " + str(width);
  CodeWriter out;
  {
    auto scope = out.block();
    out.lines(pieceLocals(mesh, layout) + EmitterContext::buffer(v) +
              " = const_cast<unsigned char *>(" + at + "); // read in place");
    out.lines(bindRowPointer(mesh, layout, binding, v, true, true));
  }
  return out.take();
}

/// The copy of tensor `i` of `ids` (see globalCopies) into `out`; an input
/// `binding` binds in place is pointed at, not copied.
void copyOfTensor(EmitterContext &context, const Mesh &mesh, const std::vector<SpmdValueId> &ids,
                  size_t i, bool scatter, const InputBinding &binding, CodeWriter &out) {
  const ShardLayout &layout = context.layout(ids[i]);
  const Shape &shape = layout.globalType.shape;
  std::string word(storageWord(layout.globalType.elementType));
  std::string global = (scatter ? "inputs[" : "outputs[") + str(i) + "]";
  if (layout.isDistributed()) {
    std::string bytes = scatter ? "static_cast<const unsigned char *>(" + global + ")"
                                : "static_cast<unsigned char *>(" + global + ")";
    if (std::string copies = distributedGlobalCopy(context, ids[i], bytes, scatter);
        !copies.empty()) {
      auto scope = out.block();
      out.lines(copies);
    }
    return;
  }
  if (layout.globalType.isToken())
    return; // a token holds no data: nothing to copy
  std::string piece = EmitterContext::buffer(ids[i]);
  std::vector<int64_t> strides = denseStrides(shape);
  std::string linear;
  for (int64_t d = 0; d < layout.rank(); ++d)
    if (std::string offset = pieceOffset(layout, d); offset != "0")
      linear += (linear.empty() ? "" : " + ") + offset + " * " + str(strides[d]);
  if (scatter && binding.boundInPlace(ids[i])) {
    out.lines(bindInPlace(mesh, layout, binding, ids[i], i, linear));
    return;
  }
  std::string at = linear.empty() ? global : "as<" + word + ">(" + global + ") + (" + linear + ")";
  std::vector<PieceClass> classes = pieceClasses(layout);
  std::vector<std::string> bodies;
  for (const PieceClass &piece_ : classes) {
    std::vector<int64_t> zero(layout.rank(), 0);
    bodies.push_back(
        scatter ? stridedCopyCall(boxCopy(shape, zero, piece_.extents, zero, piece_.extents), word,
                                  at, piece)
                : stridedCopyCall(boxCopy(piece_.extents, zero, shape, zero, piece_.extents), word,
                                  piece, at));
  }
  std::string copies = dispatchOnClass(classes, bodies);
  if (copies.empty())
    return;
  auto scope = out.block();
  if (std::string holder = partialHolderCondition(mesh, layout); scatter && !holder.empty()) {
    // Unreduced over some axes: the pieces of a group sum to the value (the
    // holder's piece plus the others' identity).
    SHARDGEN_CHECK(layout.partialReducer == Reducer::Add,
                   "an input partial over a reduction other than a sum");
    std::vector<std::string> zeros; // -0.0 for floats: the holder's -0 stays -0
    const std::string identity = sumIdentityWord(layout.globalType.elementType);
    for (const PieceClass &piece_ : classes)
      zeros.push_back("fill<" + word + ", " + str(product(piece_.extents)) + ">(as<" + word + ">(" +
                      piece + "), " + identity + ");");
    out.lines(pieceLocals(mesh, layout));
    {
      auto holds = out.block("if (" + holder + ")");
      out.lines(copies);
    }
    auto others = out.block("else");
    out.lines(dispatchOnClass(classes, zeros));
    return;
  }
  std::string owner = scatter ? "" : firstHolderCondition(mesh, layout);
  std::optional<CodeWriter::Scope> ownerScope;
  if (!owner.empty())
    ownerScope.emplace(out.block("if (" + owner + ")"));
  out.lines(pieceLocals(mesh, layout) + copies);
}

/// Scatter (global -> piece) or gather (piece -> global, by the first
/// device holding each distinct piece) of the program's inputs or outputs:
/// one copy per distinct piece shape, at offsets computed from the position.
/// One statement per tensor, its code a kernel shared by equal copies.
/// Inputs `binding` binds in place are pointed at, not copied.
std::vector<Statement> globalCopies(EmitterContext &context, const std::vector<SpmdValueId> &ids,
                                    bool scatter, KernelTable &kernels,
                                    const InputBinding &binding = {}) {
  const Mesh &mesh = context.program.mesh;
  std::vector<Statement> statements;
  for (size_t i = 0; i < ids.size(); ++i) {
    CodeWriter out;
    copyOfTensor(context, mesh, ids, i, scatter, binding, out);
    statements.push_back(
        kernels.call(out.take(), KernelCaller::Position, context.takeUsedConstants()));
  }
  return statements;
}

/// Per-device call style: the piece of tensor `i` of `ids` is copied out
/// whole, into `out`; an input is read where the caller put it. The caller's
/// piece of an input has the layout of its value's buffer (that is what
/// copying it whole into the buffer relies on), and no step writes an input
/// (InputBinding.h), so every input but a distributed one is read in place:
/// the per-device style copies no input, whatever the global pieces look
/// like (an empty piece, possibly null, keeps its arena pointer).
void shardCopy(EmitterContext &context, const std::vector<SpmdValueId> &ids, size_t i, bool in,
               const InputBinding &binding, CodeWriter &out) {
  const ShardLayout &layout = context.layout(ids[i]);
  int64_t width = static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
  std::string piece = EmitterContext::buffer(ids[i]);
  std::string other = (in ? "inputs[" : "outputs[") + str(i) + "]";
  const std::string pointAtCaller =
      piece + " = const_cast<unsigned char *>(static_cast<const unsigned char *>(" + other +
      ")); // read in place";
  if (in && binding.boundInPlace(ids[i])) {
    out.lines(pointAtCaller);
    out.lines(bindRowPointer(context.program.mesh, layout, binding, ids[i], false, false));
    return;
  }
  if (layout.isDistributed()) {
    std::string bytes = in ? "static_cast<const unsigned char *>(" + other + ")"
                           : "static_cast<unsigned char *>(" + other + ")";
    if (std::string copies = distributedShardCopy(context, ids[i], bytes, in); !copies.empty()) {
      auto scope = out.block();
      out.lines(copies);
    }
    return;
  }
  std::vector<PieceClass> classes = pieceClasses(layout);
  const bool anyEmpty = std::any_of(classes.begin(), classes.end(), [](const PieceClass &piece) {
    return product(piece.extents) == 0;
  });
  if (in && !anyEmpty) { // the same code at every position
    out.lines(pointAtCaller);
    return;
  }
  std::vector<std::string> bodies;
  for (const PieceClass &pieceClass : classes) {
    int64_t bytes = product(pieceClass.extents) * width;
    if (bytes == 0)
      bodies.emplace_back();
    else if (in)
      bodies.push_back(pointAtCaller);
    else // not when the steps wrote the caller's buffer (outputBindings)
      bodies.push_back("if (static_cast<void *>(" + piece + ") != " + other + ")\n  " +
                       "__builtin_memcpy(" + other + ", " + piece + ", " + str(bytes) + ");");
  }
  if (std::string copies = dispatchOnClass(classes, bodies); !copies.empty()) {
    auto scope = out.block();
    out.lines(pieceLocals(context.program.mesh, layout) + copies);
  }
}

/// The largest piece of `layout` on any device, in bytes.
int64_t largestPieceBytes(const ShardLayout &layout) {
  int64_t largest = 0;
  for (const PieceClass &piece : pieceClasses(layout))
    largest = std::max(largest, product(piece.extents));
  return largest * static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
}

/// A condition that `buffer` (of up to `bytes`) shares no byte with any
/// other caller buffer of this device (every input, every other output),
/// compared as addresses with their largest piece sizes.
std::string apartFromOtherBuffers(const SpmdProgram &program, size_t output, int64_t bytes) {
  auto apart = [&](const std::string &other, int64_t otherBytes) {
    return "(at + " + str(bytes) + " <= reinterpret_cast<uintptr_t>(" + other +
           ") || reinterpret_cast<uintptr_t>(" + other + ") + " + str(otherBytes) + " <= at)";
  };
  std::string condition = "true";
  for (size_t i = 0; i < program.inputs.size(); ++i)
    condition += " &&\n    " + apart("inputs[" + str(static_cast<int64_t>(i)) + "]",
                                     largestPieceBytes(program.layout(program.inputs[i])));
  for (size_t j = 0; j < program.outputs.size(); ++j)
    if (j != output)
      condition += " &&\n    " + apart("outputs[" + str(static_cast<int64_t>(j)) + "]",
                                       largestPieceBytes(program.layout(program.outputs[j])));
  return condition;
}

/// Per-device call style, when the caller says no other device's buffer
/// overlaps its output pieces (bindShards gets `outputs`, else null: a
/// replicated output's one buffer shared by several devices would see their
/// steps interleave): each output is computed straight into the caller's
/// buffer for its piece (no copy after the steps). Its value is
/// pointed there before the steps: the step defining it writes it there,
/// later steps read it there, and the arena slot it would have shared with
/// values dead before it stays theirs. copyShards still copies when the
/// value ended up elsewhere: an output defined by an alias (the alias step
/// re-points it) or listed twice (the second binding wins). Not when the
/// caller's buffer overlaps another of its buffers (an update in place,
/// output j in input i's buffer: the steps would overwrite an input they
/// still read; the copy after them keeps that safe), nor for an output that
/// is a program input (bindShards pointed it at the input), a distributed
/// one (its buffer is laid out differently) or one with an empty piece (the
/// caller's pointer may be null); nor for a program of more than 64 inputs
/// and outputs.
std::vector<Statement> outputBindings(EmitterContext &context, KernelTable &kernels) {
  const SpmdProgram &program = context.program;
  std::vector<Statement> statements;
  // Each binding compares its buffer with every other one: past a few
  // dozen buffers that code grows with their square (20,000 outputs: 4e8
  // comparisons), and the copies after the steps are the cheaper way.
  constexpr size_t kMaxComparedBuffers = 64;
  if (program.inputs.size() + program.outputs.size() > kMaxComparedBuffers)
    return statements;
  for (size_t j = 0; j < program.outputs.size(); ++j) {
    const SpmdValueId id = program.outputs[j];
    const ShardLayout &layout = context.layout(id);
    const std::vector<PieceClass> classes = pieceClasses(layout);
    const bool isInput =
        std::find(program.inputs.begin(), program.inputs.end(), id) != program.inputs.end();
    const bool anyEmpty = std::any_of(classes.begin(), classes.end(), [](const PieceClass &piece) {
      return product(piece.extents) == 0;
    });
    if (isInput || layout.isDistributed() || anyEmpty)
      continue;
    const std::string buffer = "outputs[" + str(static_cast<int64_t>(j)) + "]";
    CodeWriter out;
    {
      auto scope = out.block("if (outputs)"); // null: the caller shares output buffers
      out.lines("const auto at = reinterpret_cast<uintptr_t>(" + buffer + ");");
      out.lines("if (" + apartFromOtherBuffers(program, j, largestPieceBytes(layout)) + ")");
      out.lines("  " + EmitterContext::buffer(id) + " = static_cast<unsigned char *>(" + buffer +
                "); // written in place");
    }
    statements.push_back(
        kernels.call(out.take(), KernelCaller::Position, context.takeUsedConstants()));
  }
  return statements;
}

/// The per-device copies of `ids`, one statement per tensor.
std::vector<Statement> shardCopies(EmitterContext &context, const std::vector<SpmdValueId> &ids,
                                   bool in, KernelTable &kernels,
                                   const InputBinding &binding = {}) {
  std::vector<Statement> statements;
  for (size_t i = 0; i < ids.size(); ++i) {
    CodeWriter out;
    shardCopy(context, ids, i, in, binding, out);
    statements.push_back(
        kernels.call(out.take(), KernelCaller::Position, context.takeUsedConstants()));
  }
  return statements;
}

std::string quoted(const std::string &text) { return cppStringLiteral(text); }

/// The names the graph gives its inputs or outputs (the program's output
/// value may be a resharded copy, named "y.22").
std::vector<std::string> graphNames(const Graph &graph, const std::vector<RegionArgument> &ends) {
  std::vector<std::string> names;
  for (const RegionArgument &end : ends)
    names.push_back(graph.value(end.value).name);
  return names;
}

bool communicates(const SpmdStep &step) {
  return isCommunication(step.kind) ||
         (step.kind == StepKind::Compute && step.op && isCollective(step.op->kind));
}

/// A layout's sharding, or "distribution {...}" (local buffers [k, shard...]).
std::string placementText(const ShardLayout &layout) {
  return layout.isDistributed() ? "distribution " + printDistribution(*layout.distribution) +
                                      " (local buffers [k, shard_shape...])"
                                : printSharding(layout.sharding);
}

/// Lines "//   0: x tensor<8x16xf32> <@mesh, ...>" for the header.
std::string tensorList(const SpmdProgram &program, const std::vector<SpmdValueId> &ids,
                       const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    const ShardLayout &layout = program.layout(ids[i]);
    out += "//   " +
           commentText(str(i) + ": " + names[i] + " " + printType(layout.globalType) + " " +
                       placementText(layout)) +
           "\n";
  }
  return out.empty() ? "//   (none)\n" : out;
}

/// Shape tables of the host side: k<Kind>Shape<i> (global), one table per
/// distinct piece shape, and k<Kind>ShardShapeOf(i, position) choosing it.
std::string shapeTables(const SpmdProgram &program, const std::vector<SpmdValueId> &ids,
                        const std::vector<std::string> &names, const std::string &kind,
                        std::string *infos) {
  CodeWriter tables, lookup;
  {
    auto function =
        lookup.block("const int64_t *k" + kind + "ShardShapeOf(int64_t tensor, int64_t position)");
    lookup.lines("(void)position;");
    lookup.lines("switch (tensor) {"); // case labels stay at the switch's indent
    for (size_t i = 0; i < ids.size(); ++i) {
      const ShardLayout &layout = program.layout(ids[i]);
      const Shape &shape = layout.globalType.shape;
      std::string name = "k" + kind + "Shape" + str(static_cast<int64_t>(i));
      tables.lines("const int64_t " + name + "[] = {" + (shape.empty() ? "0" : joinInts(shape)) +
                   "};");
      std::vector<PieceClass> classes = localShapeClasses(program.mesh, layout);
      std::vector<std::string> returns;
      for (size_t c = 0; c < classes.size(); ++c) {
        std::string shard = "k" + kind + "Shard" + str(static_cast<int64_t>(i)) + "_" +
                            str(static_cast<int64_t>(c));
        tables.lines("const int64_t " + shard + "[] = {" +
                     (classes[c].extents.empty() ? "0" : joinInts(classes[c].extents)) + "};");
        returns.push_back("return " + shard + ";");
      }
      // The branches cover every position; `break` keeps compilers from
      // seeing a fall-through into the next case.
      auto branch = lookup.block("case " + str(static_cast<int64_t>(i)) + ":");
      lookup.lines(pieceLocals(program.mesh, layout) + dispatchOnClass(classes, returns));
      lookup.lines("break;");
      *infos += "{" + quoted(names[i]) + ", " + quoted(printType(layout.globalType)) + ", " +
                quoted(placementText(layout)) + ", " +
                std::string(runtimeElementType(layout.globalType.elementType)) + ", " +
                str(layout.rank()) + ", " + name + ", " + str(layout.globalType.numElements()) +
                "},\n";
    }
    lookup.lines("default:\n  break;\n}");
    lookup.lines("return nullptr;");
  }
  if (ids.empty())
    *infos = "{\"\", \"\", \"\", SHARDGEN_F32, 0, nullptr, 0},\n";
  return tables.take() + lookup.take();
}

/// Every step as a statement of runSteps, fused groups at their roots: its
/// code goes into a kernel shared by equal steps.
std::vector<Statement> emitSteps(EmitterContext &context, const FusionPlan &fusion,
                                 KernelTable &kernels) {
  const SpmdProgram &program = context.program;
  std::vector<Statement> statements;
  for (size_t index = 0; index < program.steps.size(); ++index) {
    const SpmdStep &step = program.steps[index];
    if (fusion.isFusedIntoLater(index))
      continue; // computed in its group's loop, at the root
    std::string pointer = step.pointer.empty() && step.op ? step.op->pointer : step.pointer;
    std::string head;
    if (const FusedGroup *group = fusion.groupRootedAt(index)) {
      head = fusedGroupComment(program, *group) + "\n";
      emitFusedGroup(context, *group);
    } else if (step.kind == StepKind::Compute) {
      head = stepComment(program, step) + "\n";
      emitCompute(context, step);
    } else if (isStructured(step)) {
      emitStructured(context, step);
    } else {
      emitTransfer(context, step);
    }
    Statement statement =
        kernels.call(context.steps.take(), KernelCaller::Device, context.takeUsedConstants());
    statement.comments = head + statement.comments;
    if (communicates(step) && !pointer.empty()) // a stuck device is reported with its op
      statement.trace = quoted(pointer);
    if (!statement.trace.empty() && statement.kernel < 0)
      statement.verbatim = "rt::traceOp(device, " + statement.trace + ");\n" + statement.verbatim;
    statements.push_back(std::move(statement));
  }
  return statements;
}

/// The functions of the device program made of statements, in the order of
/// their placeholders (STEPS, SCATTER, GATHER, BIND_SHARDS, COPY_SHARDS).
std::vector<Routine> deviceRoutines(EmitterContext &context, const FusionPlan &fusion,
                                    const InputBinding &binding, KernelTable &kernels) {
  const SpmdProgram &program = context.program;
  const std::string toValues =
      "int64_t position, const void *const *inputs, unsigned char **values";
  const std::string fromValues = "int64_t position, unsigned char **values, void *const *outputs";
  std::vector<SpmdValueId> gathered;
  for (size_t i = 0; i < program.outputs.size(); ++i)
    gathered.push_back(program.gatheredOutput(i));
  const auto position = KernelCaller::Position;
  std::vector<Routine> routines;
  routines.push_back({"runSteps", "const rt::DeviceContext &device, unsigned char **values",
                      "device, values", KernelCaller::Device, "device, values",
                      emitSteps(context, fusion, kernels)});
  routines.push_back({"scatterInputs", toValues, "position, inputs, values", position,
                      "position, inputs, values, nullptr",
                      globalCopies(context, program.inputs, true, kernels, binding)});
  routines.push_back({"gatherOutputs", fromValues, "position, values, outputs", position,
                      "position, nullptr, values, outputs",
                      globalCopies(context, gathered, false, kernels)});
  std::vector<Statement> bindings = shardCopies(context, program.inputs, true, kernels, binding);
  for (Statement &statement : outputBindings(context, kernels))
    bindings.push_back(std::move(statement));
  routines.push_back({"bindShards",
                      "int64_t position, const void *const *inputs, unsigned char **values, "
                      "void *const *outputs",
                      "position, inputs, values, outputs", position,
                      "position, inputs, values, outputs", std::move(bindings)});
  routines.push_back({"copyShards", fromValues, "position, values, outputs", position,
                      "position, nullptr, values, outputs",
                      shardCopies(context, program.outputs, false, kernels)});
  return routines;
}

/// The device program's files: the main one from program.cpp.in, the
/// others (a large program's) from program_part.cpp.in.
void fillDeviceSources(const SplitCode &split, const std::string &name,
                       std::map<std::string, std::string> &values, GeneratedProgram &generated) {
  const char *placeholders[] = {"STEPS", "SCATTER", "GATHER", "BIND_SHARDS", "COPY_SHARDS"};
  for (size_t r = 0; r < split.bodies.size(); ++r)
    values[placeholders[r]] = split.bodies[r];
  values["PART_DECLARATIONS"] = split.partDeclarations;
  values["PARTS_NAMESPACE"] = generated.symbol + "_parts";
  auto setUnit = [&](const UnitText &unit) {
    values["CONSTANTS"] = unit.constants;
    values["KERNELS"] = unit.kernels;
    values["PARTS"] = unit.parts;
  };
  setUnit(split.main);
  generated.source = fillTemplate(embeddedFile("templates/program.cpp.in"), values);
  std::string sources = name + ".cpp";
  for (size_t u = 0; u < split.units.size(); ++u) {
    setUnit(split.units[u]);
    values["PART"] = str(static_cast<int64_t>(u + 1));
    generated.deviceParts.push_back(
        fillTemplate(embeddedFile("templates/program_part.cpp.in"), values));
    sources += " " + name + "_part" + values["PART"] + ".cpp";
  }
  values["DEVICE_SOURCES"] = sources;
}

/// The template values of the application's side (AOT header, host source):
/// names, shapes and layouts of the inputs and outputs, the mesh, custom calls.
void addApplicationValues(const SpmdProgram &program, const std::string &name,
                          std::map<std::string, std::string> &values) {
  const Graph &graph = *program.graph;
  values["HEADER"] = name + ".h";
  values["TARGET"] = name;
  values["NAME"] = name;
  values["NUM_DEVICES"] = str(program.mesh.numDevices());
  values["NUM_INPUTS"] = str(static_cast<int64_t>(program.inputs.size()));
  const std::vector<std::string> inputNames = graphNames(graph, graph.main.args);
  const std::vector<std::string> outputNames = graphNames(graph, graph.main.results);
  values["INPUT_LIST"] = tensorList(program, program.inputs, inputNames);
  values["OUTPUT_LIST"] = tensorList(program, program.outputs, outputNames);
  std::string customCalls;
  walkOps(graph.main, [&](const Op &op) {
    if (op.kind != OpKind::CustomCall)
      return;
    std::string line = "extern \"C\" void " +
                       cIdentifier(op.attr<CustomCallAttrs>().callTargetName) +
                       "(shardgen_buffer *results, int64_t num_results, const shardgen_buffer "
                       "*operands, int64_t num_operands);\n";
    if (customCalls.find(line) == std::string::npos)
      customCalls += line;
  });
  values["CUSTOM_CALLS"] = customCalls.empty() ? "//   (none)\n" : customCalls;
  std::string inputInfos, outputInfos;
  values["SHAPE_TABLES"] =
      shapeTables(program, program.inputs, inputNames, "Input", &inputInfos) +
      shapeTables(program, program.outputs, outputNames, "Output", &outputInfos);
  values["INPUT_INFOS"] = inputInfos;
  values["OUTPUT_INFOS"] = outputInfos;
  std::string axes;
  for (const MeshAxis &axis : program.mesh.axes)
    axes += (axes.empty() ? "" : ", ") + std::string("{") + quoted(axis.name) + ", " +
            str(axis.size) + "}";
  values["MESH_AXES"] = axes;
  values["DEVICE_IDS"] =
      joinInts(program.mesh.deviceIds.size() > 1 ? program.mesh.deviceIds : std::vector<int64_t>{});
  values["MESH_DECLARATIONS"] = meshDeclarations(program.mesh);
  values["LAYOUT_DECLARATIONS"] = layoutDeclarations(program, program.inputs, program.outputs);
}

} // namespace

std::vector<std::pair<std::string, std::string>> deviceSources(const GeneratedProgram &program) {
  std::vector<std::pair<std::string, std::string>> sources = {
      {program.name + ".cpp", program.source}};
  for (size_t u = 0; u < program.deviceParts.size(); ++u)
    sources.emplace_back(program.name + "_part" + std::to_string(u + 1) + ".cpp",
                         program.deviceParts[u]);
  return sources;
}

GeneratedProgram generateProgram(const SpmdProgram &program, const AotOptions &options) {
  GeneratedProgram generated;
  const Graph &graph = *program.graph;
  generated.name = options.name.empty() ? programIdentifier(graph.name) : options.name;
  generated.symbol = "shardgen_" + generated.name;

  EmitterContext context(program);
  const FusionPlan fusion = planFusion(program);
  context.binding = planInputBinding(program);
  const InputBinding &binding = context.binding;
  KernelTable kernels;
  const std::vector<Routine> routines = deviceRoutines(context, fusion, binding, kernels);
  const BufferPlan buffers = planBuffers(program, fusion, binding);
  const int64_t arenaBytes = buffers.arenaBytes;
  std::vector<int64_t> offsets = buffers.offsets;
  offsets.resize(offsets.size() + binding.numRowSlots, 0); // the row pointers' slots
  if (offsets.empty())
    offsets.push_back(0);

  std::map<std::string, std::string> values;
  values["GRAPH_NAME"] = commentText(graph.name);
  values["MESH"] = commentText(meshDescription(program.mesh));
  values["SYMBOL"] = generated.symbol;
  values["NAMESPACE"] = generated.name;
  values["NAME"] = generated.name;
  values["CUSTOM_CALL_DECLARATIONS"] =
      context.customCallDeclarations.empty() ? "//   (none)\n" : context.customCallDeclarations;
  values["NUM_VALUES"] = str(static_cast<int64_t>(offsets.size()));
  values["ARENA_BYTES"] = str(arenaBytes);
  values["VALUE_OFFSETS"] = joinInts(offsets);
  values["NUM_OUTPUTS"] = str(static_cast<int64_t>(program.outputs.size()));
  fillDeviceSources(splitDeviceCode(routines, kernels, context.constants, options.split,
                                    generated.symbol + "_parts"),
                    generated.name, values, generated);
  // Only the device files hold the device code; on large graphs it is most
  // of the text, so it is freed before the application's side is built.
  for (const char *deviceCode : {"STEPS", "SCATTER", "GATHER", "BIND_SHARDS", "COPY_SHARDS",
                                 "CONSTANTS", "KERNELS", "PARTS", "PART_DECLARATIONS"})
    values.erase(deviceCode);

  addApplicationValues(program, generated.name, values); // the application's side (AOT)
  values["BACKEND"] = options.mpi ? "mpi" : "threads";
  values["MPI_DEFAULT"] = options.mpi ? "ON" : "OFF";
  values["MPI_DECLARATIONS"] =
      options.mpi ? fillTemplate(embeddedFile("templates/program_mpi.h.in"), values) : "";
  if (options.mpi)
    generated.mpiSource = fillTemplate(embeddedFile("templates/program_mpi.cpp.in"), values);
  generated.header = fillTemplate(embeddedFile("templates/program.h.in"), values);
  generated.hostSource = fillTemplate(embeddedFile("templates/program_host.cpp.in"), values);
  generated.cmakeLists = fillTemplate(embeddedFile("templates/CMakeLists.txt.in"), values);
  return generated;
}

} // namespace shardgen
