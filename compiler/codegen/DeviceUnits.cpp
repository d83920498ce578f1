// Splitting the device code into parts and files (see DeviceUnits.h).

#include "compiler/codegen/DeviceUnits.h"

#include <algorithm>
#include <set>

#include "compiler/codegen/CodeWriter.h"

namespace shardgen::codegen {
namespace {

/// A run of a routine's statements that becomes one function.
struct Part {
  size_t routine = 0;
  std::string name; // "runSteps_3"
  size_t begin = 0, end = 0;
  size_t weight = 0; // bytes of its statements and the kernels it calls
  size_t unit = 0;   // 0: the main file
};

/// "(void)device;\n(void)values;" for "device, values".
std::string voidCasts(const std::string &arguments) {
  std::string casts;
  size_t start = 0;
  while (start < arguments.size()) {
    size_t end = std::min(arguments.find(", ", start), arguments.size());
    casts += "(void)" + arguments.substr(start, end - start) + ";\n";
    start = end + 2;
  }
  return casts;
}

/// One table of kernel calls (statements [begin, end) of `routine`, none
/// verbatim) and the loop running it.
void writeCallTable(const Routine &routine, size_t begin, size_t end, const KernelTable &kernels,
                    CodeWriter &out) {
  const bool device = routine.caller == KernelCaller::Device;
  const std::string type = device ? "DeviceCall" : "PositionCall";
  std::string indices;
  CodeWriter rows;
  int64_t next = 0;
  for (size_t s = begin; s < end; ++s) {
    const Statement &statement = routine.statements[s];
    rows.lines(statement.comments);
    if (statement.kernel < 0)
      continue;
    for (int32_t index : statement.buffers)
      indices += (indices.empty() ? "" : ", ") + std::to_string(index);
    rows.lines("{" + kernels.kernels()[statement.kernel].name + ", " + str(next) +
               (device ? ", " + (statement.trace.empty() ? "nullptr" : statement.trace) : "") +
               "},");
    next += static_cast<int64_t>(statement.buffers.size());
  }
  auto scope = out.block();
  out.lines("static const int32_t kBuffers[] = {" + (indices.empty() ? "0" : indices) + "};");
  {
    auto table = out.block("static const " + type + " kCalls[] =", "};");
    out.lines(rows.take());
  }
  auto loop = out.block("for (const " + type + " &call : kCalls)");
  if (device)
    out.lines("if (call.trace) // a stuck device is reported with its op\n"
              "  rt::traceOp(device, call.trace);");
  out.lines("call.kernel(" + routine.kernelArguments + ", kBuffers + call.buffers);");
}

/// Statements [begin, end) of `routine`: tables of kernel calls between the
/// verbatim ones.
std::string statementsText(const Routine &routine, size_t begin, size_t end,
                           const KernelTable &kernels) {
  CodeWriter out;
  size_t run = begin; // the first statement not written yet
  auto flush = [&](size_t upTo) {
    bool calls = false;
    for (size_t s = run; s < upTo; ++s)
      calls = calls || routine.statements[s].kernel >= 0;
    if (calls)
      writeCallTable(routine, run, upTo, kernels, out);
    else
      for (size_t s = run; s < upTo; ++s)
        out.lines(routine.statements[s].comments);
    run = upTo;
  };
  for (size_t s = begin; s < end; ++s) {
    const Statement &statement = routine.statements[s];
    if (statement.verbatim.empty())
      continue;
    flush(s);
    out.lines(statement.comments + statement.verbatim);
    run = s + 1;
  }
  flush(end);
  return out.take();
}

std::string partDefinition(const Routine &routine, const Part &part, const KernelTable &kernels) {
  CodeWriter out;
  {
    // noinline: the routine calling the parts stays a list of calls.
    auto function =
        out.block("[[gnu::noinline]] void " + part.name + "(" + routine.parameters + ")");
    out.lines(voidCasts(routine.arguments) +
              statementsText(routine, part.begin, part.end, kernels));
  }
  return out.take() + "\n";
}

/// The parts of the routines longer than a part; the others stay whole in
/// the main file.
std::vector<Part> cutParts(const std::vector<Routine> &routines, const KernelTable &kernels,
                           const CodeSplit &limits) {
  const size_t perPart = static_cast<size_t>(std::max<int64_t>(1, limits.statementsPerPart));
  std::vector<Part> parts;
  for (size_t r = 0; r < routines.size(); ++r) {
    const std::vector<Statement> &statements = routines[r].statements;
    if (statements.size() <= perPart)
      continue;
    for (size_t begin = 0; begin < statements.size(); begin += perPart) {
      Part part;
      part.routine = r;
      part.name = routines[r].name + "_" + str(static_cast<int64_t>(begin / perPart));
      part.begin = begin;
      part.end = std::min(statements.size(), begin + perPart);
      std::set<int64_t> called;
      for (size_t s = part.begin; s < part.end; ++s) {
        part.weight += statements[s].comments.size() + statements[s].verbatim.size() + 16;
        if (int64_t kernel = statements[s].kernel; kernel >= 0 && called.insert(kernel).second)
          part.weight += kernels.kernels()[kernel].definition.size();
      }
      parts.push_back(std::move(part));
    }
  }
  return parts;
}

/// Puts the parts into files 1..n in order, about equal in weight, when
/// they weigh more than one file should.
void assignUnits(std::vector<Part> &parts, const CodeSplit &limits, size_t &numUnits) {
  size_t total = 0;
  for (const Part &part : parts)
    total += part.weight;
  const size_t perUnit = static_cast<size_t>(std::max<int64_t>(1, limits.bytesPerUnit));
  numUnits = total <= perUnit ? 0
                              : std::min(static_cast<size_t>(std::max<int64_t>(1, limits.maxUnits)),
                                         (total + perUnit - 1) / perUnit);
  size_t before = 0;
  for (Part &part : parts) {
    part.unit = numUnits == 0 ? 0 : 1 + std::min(numUnits - 1, before * numUnits / total);
    before += part.weight;
  }
}

/// The constants and kernels the statements [begin, end) of `routine` need.
void collectUses(const Routine &routine, size_t begin, size_t end, std::set<int64_t> &kernels,
                 std::set<size_t> &constants) {
  for (size_t s = begin; s < end; ++s) {
    const Statement &statement = routine.statements[s];
    if (statement.kernel >= 0)
      kernels.insert(statement.kernel);
    constants.insert(statement.constants.begin(), statement.constants.end());
  }
}

std::string definitions(const std::set<int64_t> &used, const KernelTable &kernels,
                        std::set<size_t> &constants) {
  std::string text;
  for (int64_t kernel : used) {
    const Kernel &definition = kernels.kernels()[kernel];
    constants.insert(definition.constants.begin(), definition.constants.end());
    text += definition.definition;
  }
  return text;
}

} // namespace

SplitCode splitDeviceCode(const std::vector<Routine> &routines, const KernelTable &kernels,
                          const std::vector<EmitterContext::Constant> &constants,
                          const CodeSplit &limits, const std::string &partsNamespace) {
  std::vector<Part> parts = cutParts(routines, kernels, limits);
  size_t numUnits = 0;
  assignUnits(parts, limits, numUnits);

  SplitCode split;
  split.units.resize(numUnits);
  std::vector<std::set<int64_t>> usedKernels(numUnits + 1);
  std::vector<std::set<size_t>> usedConstants(numUnits + 1);
  split.bodies.resize(routines.size());
  std::vector<bool> parted(routines.size(), false);
  for (const Part &part : parts) {
    const Routine &routine = routines[part.routine];
    parted[part.routine] = true;
    collectUses(routine, part.begin, part.end, usedKernels[part.unit], usedConstants[part.unit]);
    UnitText &unit = part.unit == 0 ? split.main : split.units[part.unit - 1];
    unit.parts += partDefinition(routine, part, kernels);
    split.bodies[part.routine] += (part.unit == 0 ? "" : partsNamespace + "::") + part.name + "(" +
                                  routine.arguments + ");\n";
    if (part.unit != 0)
      split.partDeclarations += "void " + part.name + "(" + routine.parameters + ");\n";
  }
  for (size_t r = 0; r < routines.size(); ++r) {
    if (parted[r])
      continue;
    collectUses(routines[r], 0, routines[r].statements.size(), usedKernels[0], usedConstants[0]);
    split.bodies[r] = statementsText(routines[r], 0, routines[r].statements.size(), kernels);
  }
  if (!split.partDeclarations.empty())
    split.partDeclarations =
        "namespace " + partsNamespace + " {\n" + split.partDeclarations + "} // namespace\n";
  for (size_t u = 0; u <= numUnits; ++u) {
    UnitText &unit = u == 0 ? split.main : split.units[u - 1];
    unit.kernels = definitions(usedKernels[u], kernels, usedConstants[u]);
    for (size_t c : usedConstants[u])
      unit.constants += constants[c].definition + "\n";
  }
  return split;
}

} // namespace shardgen::codegen
