// Emission of loops and branches (SpmdProgram.h, StepKind::Loop/Branch):
// the per-device code keeps the structure, a C++ `for (;;)` or `switch`
// around the code of its blocks' steps, each emitted as a step of its own
// (not fused across the block's edge). Case results are copied between
// buffers as whole local pieces; a loop's carried values are views of its
// inputs when invariant, else trade buffers with the body's results (or are
// copied, see emitNextIteration).

#include <algorithm>
#include <map>
#include <set>

#include "compiler/codegen/BufferViews.h"
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

/// The same between value `v`'s piece and the bytes at `pointer` (a C++
/// expression): into them (`toPointer`) or out of them.
void emitCopyWith(EmitterContext &context, SpmdValueId v, const std::string &pointer,
                  bool toPointer) {
  context.addPerPieceShape({v}, [&](int64_t d) -> std::string {
    const int64_t bytes = localBytes(context.layout(v), d);
    if (bytes == 0)
      return "";
    const std::string piece = "as<uint8_t>(" + EmitterContext::buffer(v) + ")";
    const std::string other = "as<uint8_t>(" + pointer + ")";
    return "copy<uint8_t, " + str(bytes) + ">(" + (toPointer ? piece : other) + ", " +
           (toPointer ? other : piece) + ");";
  });
}

/// Whether `a` and `b` have pieces of the same bytes on every device.
bool samePieceBytes(const EmitterContext &context, SpmdValueId a, SpmdValueId b) {
  if (context.elementType(a) != context.elementType(b))
    return false;
  for (int64_t d = 0; d < context.program.mesh.numDevices(); ++d)
    if (localBytes(context.layout(a), d) != localBytes(context.layout(b), d))
      return false;
  return true;
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

/// The values of a loop's body that are views (BufferViews.h), each with
/// what it points into: following them from a returned value leads to the
/// buffer holding its bytes.
std::map<SpmdValueId, ViewOf> bodyViews(const SpmdProgram &program, const SpmdBlock &body) {
  std::map<SpmdValueId, ViewOf> views;
  for (const SpmdStep &inner : body.steps)
    for (size_t i = 0; i < inner.outputs.size(); ++i)
      if (std::optional<ViewOf> view = viewOf(program, inner, i))
        views[inner.outputs[i]] = *view;
  return views;
}

/// The end of an iteration: the body's results become the carried values.
/// A result the body computed into a buffer of its own (not a view; as
/// large, one element type) trades buffers with its carried value, no
/// bytes copied: the next iteration reads that buffer and writes the other
/// (double buffering). Others are copied, first those whose bytes are in a
/// carried buffer another copy writes (through a scratch copy), all before
/// the trades, which move no bytes.
void emitNextIteration(EmitterContext &context, const SpmdStep &loop) {
  const SpmdProgram &program = context.program;
  const SpmdBlock &body = loop.blocks[1];
  const std::map<SpmdValueId, ViewOf> views = bodyViews(program, body);
  std::set<SpmdValueId> computed; // the body's own buffers
  for (const SpmdStep &inner : body.steps)
    for (SpmdValueId v : inner.outputs)
      if (!views.count(v))
        computed.insert(v);
  struct Root {
    SpmdValueId value;
    bool whole; // the same bytes as the result
  };
  auto rootOf = [&](SpmdValueId v) {
    Root root{v, true};
    for (auto view = views.find(v); view != views.end(); view = views.find(root.value)) {
      root.value = view->second.source;
      root.whole = root.whole && view->second.whole;
    }
    return root;
  };
  const size_t n = loop.carried.size();
  std::vector<Root> roots;
  std::vector<bool> traded(n, false), copied(n, false);
  std::set<SpmdValueId> claimed;
  for (size_t i = 0; i < n; ++i) {
    const SpmdValueId result = body.results[i], carried = loop.carried[i];
    roots.push_back(rootOf(result));
    const Root &root = roots.back();
    if (result == carried || (root.value == carried && root.whole))
      continue; // the same bytes
    traded[i] = root.whole && computed.count(root.value) && claimed.insert(root.value).second &&
                samePieceBytes(context, root.value, carried);
    copied[i] = !traded[i];
  }
  std::set<SpmdValueId> written;
  for (size_t i = 0; i < n; ++i)
    if (copied[i])
      written.insert(loop.carried[i]);
  CodeWriter &out = context.steps;
  std::vector<size_t> staged;
  for (size_t i = 0; i < n; ++i)
    if (copied[i] && written.count(roots[i].value))
      staged.push_back(i);
  for (size_t i : staged) {
    // Kept apart until every copy has read what it needs.
    const std::string k = str(static_cast<int64_t>(i));
    int64_t bytes = 0;
    for (int64_t d = 0; d < program.mesh.numDevices(); ++d)
      bytes = std::max(bytes, localBytes(program.layout(body.results[i]), d));
    out.lines("Scratch staged" + k + "(" + str(bytes) + ");");
    emitCopyWith(context, body.results[i], "staged" + k + ".data", true);
  }
  for (size_t i = 0; i < n; ++i)
    if (copied[i] && std::find(staged.begin(), staged.end(), i) == staged.end())
      emitCopy(context, body.results[i], loop.carried[i]);
  for (size_t i : staged)
    emitCopyWith(context, loop.carried[i], "staged" + str(static_cast<int64_t>(i)) + ".data",
                 false);
  for (size_t i = 0; i < n; ++i)
    if (traded[i]) {
      const std::string a = EmitterContext::buffer(loop.carried[i]),
                        b = EmitterContext::buffer(roots[i].value);
      out.lines("{ unsigned char *const traded = " + a + "; " + a + " = " + b + "; " + b +
                " = traded; }");
    }
}

} // namespace

void emitStructured(EmitterContext &context, const SpmdStep &step) {
  CodeWriter &out = context.steps;
  auto scope = out.block();
  if (step.kind == StepKind::Loop) {
    SHARDGEN_CHECK(step.blocks.size() == 2, "a loop step needs a condition and a body");
    // A carried value the body returns unchanged is a view of the loop's
    // input, and the loop's output a view of it (BufferViews.h); the others
    // are copied in and out.
    auto carry = [&](const std::vector<SpmdValueId> &from, const std::vector<SpmdValueId> &to) {
      for (size_t i = 0; i < step.carried.size(); ++i) {
        if (isInvariantCarry(step, i))
          out.lines(EmitterContext::buffer(to[i]) + " = " + EmitterContext::buffer(from[i]) + ";");
        else
          emitCopy(context, from[i], to[i]);
      }
    };
    carry(step.inputs, step.carried);
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
      emitNextIteration(context, step);
    }
    carry(step.carried, step.outputs);
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
