#include "compiler/driver/MemoryBudget.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/CommunicationManifest.h"

namespace shardgen::driver {
namespace {

// The share of the machine's memory a run may plan to use: the rest is for
// the process itself (JIT, code, allocator slack) and everything else.
constexpr double kMachineShare = 0.9;

/// Bytes of a tensor type, or nullopt when they do not fit in int64_t.
std::optional<int64_t> typeBytes(const TensorType &type) {
  int64_t bytes = static_cast<int64_t>(elementByteWidth(type.elementType));
  for (int64_t d : type.shape)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      return std::nullopt;
  return bytes;
}

int64_t valueBytes(const Graph &graph, ValueId id) {
  return typeBytes(graph.type(id)).value_or(INT64_MAX);
}

std::string describeTensor(const std::string &name, const TensorType &type, int64_t bytes,
                           const std::string &scope = "") {
  return "\"" + name + "\" (" + printType(type) + ", " + formatBytes(bytes) + scope + ")";
}

/// The cgroup's memory limit (v2, then v1), if there is one.
std::optional<int64_t> cgroupLimit() {
  for (const char *file :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(file);
    std::string text;
    if (!(in >> text) || text == "max")
      continue;
    try {
      return std::stoll(text);
    } catch (const std::exception &) {
      continue; // unlimited cgroups v1 print a number beyond int64_t
    }
  }
  return std::nullopt;
}

/// a * b for non-negative a and b, INT64_MAX where it does not fit.
int64_t saturatingMultiply(int64_t a, int64_t b) {
  int64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

/// The length a Bluestein transform of n points runs at (the smallest
/// power of two >= 2n - 1), or n itself for a power of two.
int64_t transformLength(int64_t n) {
  if (n <= 1 || (n & (n - 1)) == 0)
    return n;
  int64_t m = 1;
  while (m / 2 < n && m < (int64_t(1) << 61)) // m < 2n - 1, without 2n overflowing
    m *= 2;
  return m;
}

/// What an fft's kernel takes besides its values: a working block of
/// `blockElements` complex elements of `complexBytes`, and per transformed
/// dim a plan (twiddles, chirp, kernel and work: under 4 transform lengths
/// of complex elements, plus the f64 spectrum the kernel's kernel is made
/// from). Saturates.
int64_t fftScratchBytes(const FftAttrs &attrs, int64_t blockElements, int64_t complexBytes) {
  int64_t elements = blockElements;
  int64_t wide = 0;
  for (int64_t n : attrs.fftLength) {
    const int64_t m = transformLength(n);
    elements = saturatingAdd(elements, saturatingAdd(n, saturatingMultiply(m, 4)));
    wide = saturatingAdd(wide, m);
  }
  return saturatingAdd(saturatingMultiply(elements, complexBytes), saturatingMultiply(wide, 16));
}

/// The interpreter's fft holds the whole operand, and a copy of the result,
/// as complex long double (compiler/interp/Fft.cpp), beside the plans.
int64_t interpreterScratchBytes(const Graph &graph, const Op &op) {
  if (op.kind != OpKind::Fft)
    return 0;
  int64_t elements = 0;
  for (ValueId value : {op.operands[0], op.results[0]})
    elements = saturatingAdd(elements, graph.type(value).numElements());
  return fftScratchBytes(op.attr<FftAttrs>(), saturatingAdd(elements, elements), 32);
}

/// The most working memory one step's kernels take at once on the mesh
/// (every device runs the step): an fft's block, of its transform dims
/// (whole on each device) in the part type's complex, and its plans.
int64_t meshScratchBytes(const SpmdProgram &program) {
  int64_t most = 0;
  for (const SpmdStep &step : program.steps) {
    if (!step.op || step.op->kind != OpKind::Fft)
      continue;
    const auto &attrs = step.op->attr<FftAttrs>();
    const ElementType part = complexPartType(program.graph->type(step.op->operands[0]).elementType);
    const int64_t complexBytes = 2 * static_cast<int64_t>(elementByteWidth(part));
    const bool halfLast = attrs.type() == FftType::Rfft || attrs.type() == FftType::Irfft;
    int64_t block = 1, longest = 0;
    for (size_t d = 0; d < attrs.fftLength.size(); ++d) {
      const int64_t n = attrs.fftLength[d];
      const int64_t dim = halfLast && d + 1 == attrs.fftLength.size() ? n / 2 + 1 : n;
      block = saturatingMultiply(block, dim);
      longest = std::max(longest, n);
    }
    const int64_t perDevice = fftScratchBytes(attrs, saturatingAdd(block, longest), complexBytes);
    most = std::max(most, saturatingMultiply(perDevice, program.mesh.numDevices()));
  }
  return most;
}

} // namespace

int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

int64_t parseByteSize(const std::string &text, const std::string &option) {
  auto bad = [&] {
    return std::invalid_argument(option + " takes a size such as 512M or 4G, not '" + text + "'");
  };
  size_t end = 0;
  while (end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
    ++end;
  std::string number = text.substr(0, end), unit = text.substr(end);
  if (number.empty() || number.front() == '.' || std::count(number.begin(), number.end(), '.') > 1)
    throw bad();
  for (char &c : unit)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const std::map<std::string, int> kPowers = {
      {"", 0},    {"B", 0}, {"K", 1},  {"KB", 1},  {"KIB", 1}, {"M", 2},  {"MB", 2},
      {"MIB", 2}, {"G", 3}, {"GB", 3}, {"GIB", 3}, {"T", 4},   {"TB", 4}, {"TIB", 4}};
  auto power = kPowers.find(unit);
  if (power == kPowers.end())
    throw bad();
  double bytes = std::stod(number) * std::pow(1024.0, power->second);
  if (!(bytes >= 1) || bytes >= 9.2e18)
    throw std::invalid_argument(option + " must be at least 1 byte and below 8 EiB, not '" + text +
                                "'");
  return static_cast<int64_t>(bytes);
}

std::string formatBytes(int64_t bytes) {
  if (bytes == INT64_MAX)
    return "more than 8 EiB";
  static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6)
    value /= 1024, ++unit;
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
  else
    std::snprintf(text, sizeof text, value >= 100 ? "%.0f %s" : "%.3g %s", value, kUnits[unit]);
  return text;
}

MemoryLimit machineMemoryLimit() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  int64_t machine = pages > 0 && pageSize > 0 ? static_cast<int64_t>(pages) * pageSize : INT64_MAX;
  std::string what = "this machine's";
  if (auto cgroup = cgroupLimit(); cgroup && *cgroup < machine)
    machine = *cgroup, what = "this control group's";
  auto bytes = static_cast<int64_t>(static_cast<double>(machine) * kMachineShare);
  return {bytes, "90% of " + what + " " + formatBytes(machine) + " of memory"};
}

MemoryDemand interpreterDemand(const Graph &graph) {
  // Inputs stay live (the caller holds them); other values from their op to
  // their last use; outputs to the end.
  const Region &main = graph.main;
  std::map<ValueId, int64_t> remainingUses, live;
  for (const Op &op : main.ops)
    for (ValueId operand : op.operands)
      ++remainingUses[operand];
  for (const RegionResult &result : main.results)
    ++remainingUses[result.value];
  int64_t liveBytes = 0;
  MemoryDemand demand;
  auto notePeak = [&] {
    if (liveBytes <= demand.bytes && !demand.pointer.empty())
      return;
    demand.bytes = liveBytes;
    ValueId largest = -1;
    for (auto [id, bytes] : live)
      if (largest < 0 || bytes > live[largest])
        largest = id;
    if (largest >= 0) {
      const Value &value = graph.value(largest);
      demand.pointer = value.pointer();
      demand.tensor = describeTensor(value.name, *value.type, live[largest]);
    }
  };
  for (const RegionArgument &arg : main.args) {
    live[arg.value] = valueBytes(graph, arg.value);
    liveBytes = saturatingAdd(liveBytes, live[arg.value]);
  }
  notePeak();
  std::map<ValueId, bool> isInput;
  for (const RegionArgument &arg : main.args)
    isInput[arg.value] = true;
  for (const Op &op : main.ops) {
    for (ValueId result : op.results) {
      live[result] = valueBytes(graph, result);
      liveBytes = saturatingAdd(liveBytes, live[result]);
    }
    // A kernel's own working memory, while the op runs.
    const int64_t before = liveBytes;
    liveBytes = saturatingAdd(liveBytes, interpreterScratchBytes(graph, op));
    notePeak();
    liveBytes = before;
    for (ValueId operand : op.operands)
      if (--remainingUses[operand] == 0 && !isInput[operand] && live.count(operand)) {
        if (liveBytes != INT64_MAX)
          liveBytes -= live[operand];
        live.erase(operand);
      }
  }
  return demand;
}

MemoryDemand meshRunDemand(const SpmdProgram &program) {
  const Graph &graph = *program.graph;
  MeshMemoryPeak peak = meshPeakBufferBytes(program);
  MemoryDemand demand;
  demand.bytes = saturatingAdd(peak.bytes, meshScratchBytes(program));
  int64_t largestBytes = -1;
  auto consider = [&](const std::string &pointer, const std::string &name, const TensorType &type,
                      int64_t bytes, const std::string &scope) {
    if (bytes <= largestBytes)
      return;
    largestBytes = bytes;
    demand.pointer = pointer;
    demand.tensor = describeTensor(name, type, bytes, scope);
  };
  // The whole inputs and outputs the host passes in and gets back.
  std::vector<ValueId> globals;
  for (const RegionArgument &arg : graph.main.args)
    globals.push_back(arg.value);
  for (const RegionResult &result : graph.main.results)
    globals.push_back(result.value);
  for (ValueId id : globals) {
    const Value &value = graph.value(id);
    int64_t bytes = valueBytes(graph, id);
    demand.bytes = saturatingAdd(demand.bytes, bytes);
    consider(value.pointer(), value.name, *value.type, bytes, "");
  }
  if (peak.largest >= 0) {
    const SpmdValue &value = program.values[peak.largest];
    int64_t bytes = 0;
    for (int64_t device = 0; device < program.mesh.numDevices(); ++device)
      bytes = saturatingAdd(bytes, localBytes(value.layout, device));
    std::string pointer;
    if (value.source >= 0)
      pointer = graph.value(value.source).pointer();
    for (const SpmdStep &step : program.steps)
      for (SpmdValueId output : step.outputs)
        if (pointer.empty() && output == peak.largest)
          pointer = step.pointer;
    consider(pointer, value.name, value.layout.globalType, bytes,
             " over the " + std::to_string(program.mesh.numDevices()) + " devices' pieces");
  }
  return demand;
}

void requireFits(const std::string &command, const MemoryDemand &demand, const MemoryLimit &limit) {
  if (demand.bytes <= limit.bytes)
    return;
  fail(demand.pointer, "tensor " + demand.tensor + " does not fit in memory: " + command +
                           " needs at least " + formatBytes(demand.bytes) + ", more than the " +
                           formatBytes(limit.bytes) + " allowed (" + limit.origin + ")");
}

} // namespace shardgen::driver
