// Emission of a fused elementwise group (see Fusion.h): one loop over the
// root's local piece; each member op is a named temporary, the leaves are
// read from their buffers, only the root's result is stored.

#include <map>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/Fusion.h"

namespace shardgen::codegen {
namespace {

/// The loop body and the lambda captures of one group (the same on every
/// device; only the trip count differs).
struct FusedBody {
  std::string captures; // "in0 = as<float>(values[3]), ..."
  CodeWriter body;      // temporaries and the returned root expression
};

FusedBody fusedBody(const EmitterContext &context, const FusedGroup &group) {
  const SpmdProgram &program = context.program;
  std::map<SpmdValueId, std::string> temporaries; // fused-away values
  std::map<SpmdValueId, std::string> leaves;      // values read from buffers
  FusedBody out;
  auto operand = [&](SpmdValueId v) -> std::string {
    if (auto it = temporaries.find(v); it != temporaries.end())
      return it->second;
    std::string tag(elementTag(context.elementType(v)));
    auto [it, inserted] = leaves.emplace(v, "in" + str(static_cast<int64_t>(leaves.size())));
    if (inserted)
      out.captures += (out.captures.empty() ? "" : ", ") + it->second + " = as<" +
                      std::string(storageType(context.elementType(v))) + ">(" +
                      EmitterContext::buffer(v) + ")";
    return tag + "::load(loadAt(" + it->second + ", i))";
  };
  for (size_t index : group.steps) {
    const SpmdStep &step = program.steps[index];
    const Op &op = *step.op;
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

} // namespace

void emitFusedGroup(EmitterContext &context, const FusedGroup &group) {
  const SpmdStep &root = context.program.steps[group.root()];
  const SpmdValueId result = root.outputs[0];
  const std::string storage(storageType(context.elementType(result)));
  const FusedBody body = fusedBody(context, group);
  context.addPerPieceShape({result}, [&](int64_t d) -> std::string {
    int64_t n = product(context.localShape(result, d));
    if (n == 0)
      return "";
    CodeWriter code;
    {
      auto lambda =
          code.block("fusedElementwise<" + storage + ", " + str(n) + ">(as<" + storage + ">(" +
                         EmitterContext::buffer(result) + "), [" + body.captures + "](int64_t i)",
                     "});");
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
