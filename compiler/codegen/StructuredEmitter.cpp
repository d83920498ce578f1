// Emission of loops and branches (SpmdProgram.h, StepKind::Loop/Branch):
// the per-device code keeps the structure, a C++ `for (;;)` or `switch`
// around the code of its blocks' steps, each emitted as a step of its own
// (not fused across the block's edge). Carried values and case results are
// copied between buffers as whole local pieces.

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/ir/InternalError.h"
#include "compiler/partition/CollectiveTraffic.h"

namespace shardgen::codegen {
namespace {

/// Copies each device's piece of value `from` into value `to` (same pieces).
void emitCopy(EmitterContext &context, SpmdValueId from, SpmdValueId to) {
  if (from == to)
    return;
  context.addPerPieceShape({from, to}, [&](int64_t d) -> std::string {
    const int64_t bytes = localBytes(context.layout(from), d);
    if (bytes == 0)
      return "";
    return "copy<uint8_t, " + str(bytes) + ">(as<uint8_t>(" + EmitterContext::buffer(from) +
           "), as<uint8_t>(" + EmitterContext::buffer(to) + "));";
  });
}

void emitCopies(EmitterContext &context, const std::vector<SpmdValueId> &from,
                const std::vector<SpmdValueId> &to) {
  for (size_t i = 0; i < from.size() && i < to.size(); ++i)
    emitCopy(context, from[i], to[i]);
}

void emitBlockSteps(EmitterContext &context, const SpmdBlock &block) {
  for (const SpmdStep &step : block.steps) {
    const bool communicates =
        isCommunication(step.kind) ||
        (step.kind == StepKind::Compute && step.op && isCollective(step.op->kind));
    std::string pointer = step.pointer.empty() && step.op ? step.op->pointer : step.pointer;
    if (communicates && !pointer.empty()) // a stuck device is reported with its op
      context.steps.lines("rt::traceOp(device, " + cppStringLiteral(pointer) + ");");
    if (step.kind == StepKind::Compute)
      emitCompute(context, step);
    else if (isStructured(step))
      emitStructured(context, step);
    else
      emitTransfer(context, step);
  }
}

/// A scalar every device holds whole (the condition, the index), read at 0.
std::string scalar(const EmitterContext &context, SpmdValueId v) {
  const ElementType type = context.elementType(v);
  return std::string(elementTag(type)) + "::load(loadAt(as<" + std::string(storageType(type)) +
         ">(" + EmitterContext::buffer(v) + "), 0))";
}

} // namespace

void emitStructured(EmitterContext &context, const SpmdStep &step) {
  CodeWriter &out = context.steps;
  auto scope = out.block();
  if (step.kind == StepKind::Loop) {
    SHARDGEN_CHECK(step.blocks.size() == 2, "a loop step needs a condition and a body");
    const std::vector<SpmdValueId> initial(step.inputs.begin(),
                                           step.inputs.begin() +
                                               static_cast<std::ptrdiff_t>(step.carried.size()));
    emitCopies(context, initial, step.carried);
    {
      auto loop = out.block("for (;;)");
      // Each iteration names the loop: a loop that never ends is stopped
      // here (run --timeout) and reported in it, collectives or not.
      std::string pointer = step.pointer.empty() && step.op ? step.op->pointer : step.pointer;
      if (!pointer.empty())
        out.lines("rt::traceOp(device, " + cppStringLiteral(pointer) + ");");
      emitBlockSteps(context, step.blocks[0]);
      out.lines("if (!" + scalar(context, step.blocks[0].results.at(0)) + ")");
      out.lines("  break;");
      emitBlockSteps(context, step.blocks[1]);
      emitCopies(context, step.blocks[1].results, step.carried);
    }
    emitCopies(context, step.carried, step.outputs);
    return;
  }
  SHARDGEN_CHECK(!step.blocks.empty() && !step.inputs.empty(), "a branch needs an index and cases");
  const int64_t last = static_cast<int64_t>(step.blocks.size()) - 1;
  // StableHLO's case: an index out of [0, N) runs the last branch.
  out.lines("const int64_t taken = static_cast<int64_t>(" + scalar(context, step.inputs[0]) + ");");
  auto cases =
      out.block("switch (taken < 0 || taken > " + str(last) + " ? " + str(last) + " : taken)");
  for (int64_t b = 0; b <= last; ++b) {
    auto branch = out.block("case " + str(b) + ":");
    emitBlockSteps(context, step.blocks[static_cast<size_t>(b)]);
    emitCopies(context, step.blocks[static_cast<size_t>(b)].results, step.outputs);
    out.lines("break;");
  }
}

} // namespace shardgen::codegen
