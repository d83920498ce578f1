// Emission of a fused elementwise group (see Fusion.h): one loop over the
// root's local piece; each member op is a named temporary, the leaves are
// read from their buffers, only the root's result is stored.

#include <map>
#include <set>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/Fusion.h"

namespace shardgen::codegen {
namespace {

/// The loop body and the lambda captures of one group (the same on every
/// device; only the trip count differs).
struct FusedBody {
  std::string captures;          // "in0 = as<float>(values[3]), ..."
  CodeWriter body;               // temporaries and the returned root expression
  std::set<std::string> indices; // of the loop's indices (i, r, c), those read
};

/// The index at which a fused broadcast's operand is read (r and c: the
/// outer and inner indices of the loop nest).
std::string broadcastIndex(const SpmdProgram &program, const SpmdStep &step) {
  switch (fusibleBroadcast(program, step)->kind) {
  case BroadcastRead::Scalar:
    return "0";
  case BroadcastRead::Inner:
    return "c";
  case BroadcastRead::Outer:
    return "r";
  }
  return "0";
}

FusedBody fusedBody(const EmitterContext &context, const FusedGroup &group) {
  const SpmdProgram &program = context.program;
  std::map<SpmdValueId, std::string> temporaries; // fused-away values
  std::map<SpmdValueId, std::string> leaves;      // values read from buffers
  // Fused broadcasts: their result is read as (operand, index).
  std::map<SpmdValueId, std::pair<SpmdValueId, std::string>> broadcasts;
  FusedBody out;
  if (group.dotEpilogue) // the product is the epilogue's argument
    temporaries[program.steps[group.steps.front()].outputs[0]] =
        std::string(elementTag(context.elementType(program.steps[group.root()].outputs[0]))) +
        "::load(product)";
  auto operand = [&](SpmdValueId v) -> std::string {
    if (auto it = temporaries.find(v); it != temporaries.end())
      return it->second;
    std::string tag(elementTag(context.elementType(v)));
    auto [source, index] =
        broadcasts.count(v) ? broadcasts[v] : std::pair<SpmdValueId, std::string>(v, "i");
    out.indices.insert(index);
    auto [it, inserted] = leaves.emplace(source, "in" + str(static_cast<int64_t>(leaves.size())));
    if (inserted)
      out.captures += (out.captures.empty() ? "" : ", ") + it->second + " = as<" +
                      std::string(storageType(context.elementType(v))) + ">(" +
                      EmitterContext::buffer(source) + ")";
    return tag + "::load(loadAt(" + it->second + ", " + index + "))";
  };
  for (size_t index : group.steps) {
    const SpmdStep &step = program.steps[index];
    const Op &op = *step.op;
    if (op.kind == OpKind::DotGeneral) // the epilogue's caller
      continue;
    if (op.kind == OpKind::BroadcastInDim) { // read where consumed, never stored
      broadcasts[step.outputs[0]] = {step.inputs[0], broadcastIndex(program, step)};
      continue;
    }
    ElementType type = context.elementType(step.inputs[0]);
    std::string tag(elementTag(type));
    // Operands in order (leaves are numbered as they are first read).
    std::string arguments;
    for (SpmdValueId input : step.inputs)
      arguments += (arguments.empty() ? "" : ", ") + operand(input);
    std::string call =
        std::string(elementwiseFunctor(op.kind, type)) + "::apply(" + arguments + ")";
    SpmdValueId result = step.outputs[0];
    if (index == group.root()) {
      out.body.lines("return " + tag + "::store(" + call + ");");
    } else {
      // Rounded as if stored (a no-op for f32), so fusion changes no bit.
      // Numbered within the group: equal groups give equal text (one kernel).
      std::string name = "t" + str(static_cast<int64_t>(temporaries.size()));
      temporaries[result] = name;
      out.body.lines("const auto " + name + " = " + tag + "::load(" + tag + "::store(" + call +
                     ")); // " + commentText(program.values[result].name));
    }
  }
  return out;
}

/// The group as the epilogue of its first step, a dot: a lambda of the
/// product's element index i, its column c and its value.
void emitDotEpilogue(EmitterContext &context, const FusedGroup &group, const FusedBody &body) {
  const SpmdValueId result = context.program.steps[group.root()].outputs[0];
  const std::string storage(storageType(context.elementType(result)));
  CodeWriter lambda;
  {
    auto scope =
        lambda.block("[" + body.captures + "](int64_t i, int64_t c, " + storage + " product)", "}");
    std::string unused;
    for (const char *index : {"i", "c"})
      if (!body.indices.count(index))
        unused += std::string(unused.empty() ? "" : ", ") + "(void)" + index;
    if (!unused.empty())
      lambda.lines(unused + ";");
    lambda.lines(body.body.str());
  }
  std::string text = lambda.take();
  text.pop_back(); // the call's ");" follows the lambda's brace
  emitDotGeneralEpilogue(context, context.program.steps[group.steps.front()], result, text);
}

} // namespace

void emitFusedGroup(EmitterContext &context, const FusedGroup &group) {
  const SpmdStep &root = context.program.steps[group.root()];
  const SpmdValueId result = root.outputs[0];
  const std::string storage(storageType(context.elementType(result)));
  const FusedBody body = fusedBody(context, group);
  if (group.dotEpilogue)
    return emitDotEpilogue(context, group, body);
  // A chain through an 8-, 6- or 4-bit float has no vector form (its
  // conversions branch per element): a plain loop, not a forced vectorization.
  bool miniFloat = false;
  for (size_t index : group.steps) {
    const SpmdStep &step = context.program.steps[index];
    for (const auto *ids : {&step.inputs, &step.outputs})
      for (SpmdValueId id : *ids)
        miniFloat = miniFloat || isMiniFloat(context.elementType(id));
  }
  const std::string vectorize = miniFloat ? ", false" : "";
  // Broadcast operands' pieces are part of the key: their extents differ
  // where the result's do not.
  std::vector<SpmdValueId> pieces = {result};
  for (size_t index : group.steps)
    if (context.program.steps[index].op->kind == OpKind::BroadcastInDim)
      pieces.push_back(context.program.steps[index].inputs[0]);
  context.addPerPieceShape(pieces, [&](int64_t d) -> std::string {
    const Shape shape = context.localShape(result, d);
    int64_t n = product(shape);
    if (n == 0)
      return "";
    std::string head = "fusedElementwise<" + storage + ", " + str(n) + vectorize;
    std::string parameters = "(int64_t i)";
    if (group.split >= 0) {
      const int64_t inner = product(Shape(shape.begin() + group.split, shape.end()));
      head =
          "fusedElementwise2D<" + storage + ", " + str(n / inner) + ", " + str(inner) + vectorize;
      parameters = "(int64_t r, int64_t c, int64_t i)";
    }
    std::string unused; // a 2-D loop's body may read only some of its indices
    for (const char *index : {"r", "c", "i"})
      if (group.split >= 0 && !body.indices.count(index))
        unused += std::string(unused.empty() ? "" : ", ") + "(void)" + index;
    CodeWriter code;
    {
      auto lambda = code.block(head + ">(as<" + storage + ">(" + EmitterContext::buffer(result) +
                                   "), [" + body.captures + "]" + parameters,
                               "});");
      if (!unused.empty())
        code.lines(unused + ";");
      code.lines(body.body.str());
    }
    return code.take();
  });
}

std::string fusedGroupComment(const SpmdProgram &program, const FusedGroup &group) {
  std::string pointers, ops;
  for (size_t index : group.steps) {
    const SpmdStep &step = program.steps[index];
    const Op &op = *step.op;
    pointers += (pointers.empty() ? "" : ", ") + (step.pointer.empty() ? op.pointer : step.pointer);
    std::string args;
    for (SpmdValueId v : step.inputs)
      args += (args.empty() ? "" : ", ") + program.values[v].name;
    ops += (ops.empty() ? "" : "; ") + program.values[step.outputs[0]].name + " = " +
           std::string(op.name()) + "(" + args + ")";
  }
  return "// " + commentText(pointers + " (fused): " + ops);
}

} // namespace shardgen::codegen
