#include "compiler/partition/CommunicationManifest.h"

#include <algorithm>
#include <sstream>

namespace shardgen {
namespace {

/// Alias outputs share their input's buffer: the buffer each value lives in.
std::vector<SpmdValueId> bufferOf(const SpmdProgram &program) {
  std::vector<SpmdValueId> buffer(program.values.size());
  for (size_t v = 0; v < buffer.size(); ++v)
    buffer[v] = static_cast<SpmdValueId>(v);
  for (const auto &step : program.steps)
    if (step.kind == StepKind::Alias)
      for (size_t i = 0; i < step.outputs.size() && i < step.inputs.size(); ++i)
        buffer[step.outputs[i]] = buffer[step.inputs[i]];
  return buffer;
}

std::vector<int64_t> peakBufferBytes(const SpmdProgram &program) {
  auto numSteps = static_cast<int64_t>(program.steps.size());
  std::vector<SpmdValueId> buffer = bufferOf(program);
  // Live range [first, last] in step indices; inputs are live from -1.
  std::vector<int64_t> first(program.values.size(), numSteps), last(program.values.size(), -2);
  for (SpmdValueId input : program.inputs)
    first[buffer[input]] = -1;
  for (int64_t s = 0; s < numSteps; ++s) {
    for (SpmdValueId v : program.steps[s].outputs)
      first[buffer[v]] = std::min(first[buffer[v]], s);
    for (SpmdValueId v : program.steps[s].inputs)
      last[buffer[v]] = std::max(last[buffer[v]], s);
    for (SpmdValueId v : program.steps[s].outputs)
      last[buffer[v]] = std::max(last[buffer[v]], s);
  }
  for (SpmdValueId output : program.liveOutValues())
    last[buffer[output]] = numSteps;
  for (SpmdValueId input : program.inputs)
    last[buffer[input]] = std::max<int64_t>(last[buffer[input]], -1);

  // Sweep over the steps: a buffer's bytes join at `first` and leave after `last`.
  std::vector<int64_t> peak(program.mesh.numDevices(), 0);
  for (int64_t device = 0; device < program.mesh.numDevices(); ++device) {
    std::vector<int64_t> delta(numSteps + 3, 0); // index s + 1 for s in [-1, numSteps]
    for (size_t v = 0; v < program.values.size(); ++v) {
      if (buffer[v] != static_cast<SpmdValueId>(v) || first[v] > last[v])
        continue;
      int64_t bytes = localBytes(program.values[v].layout, device);
      delta[first[v] + 1] += bytes;
      delta[last[v] + 2] -= bytes;
    }
    int64_t live = 0;
    for (int64_t s = 0; s <= numSteps + 1; ++s) {
      live += delta[s];
      peak[device] = std::max(peak[device], live);
    }
  }
  return peak;
}

std::string axesText(const std::vector<AxisRef> &axes) {
  std::string text = "{";
  for (size_t i = 0; i < axes.size(); ++i)
    text += (i ? ", " : "") + printAxisRef(axes[i]);
  return text + "}";
}

} // namespace

CommunicationManifest computeManifest(const SpmdProgram &program) {
  CommunicationManifest manifest;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const SpmdStep &step = program.steps[s];
    if (!isCommunication(step.kind))
      continue;
    CollectiveRecord record;
    record.step = s;
    record.pointer = step.pointer;
    record.kind = step.kind;
    record.axes = step.axes;
    record.traffic = stepTraffic(program.mesh, step, program.layout(step.inputs[0]),
                                 program.layout(step.outputs[0]));
    manifest.collectives.push_back(std::move(record));
  }
  manifest.peakBufferBytes = peakBufferBytes(program);
  return manifest;
}

std::string formatManifest(const CommunicationManifest &manifest, const SpmdProgram &program) {
  std::ostringstream out;
  int64_t numDevices = program.mesh.numDevices();
  out << "communication manifest: " << manifest.collectives.size() << " collective(s) on "
      << numDevices << " device(s)";
  if (!program.mesh.name.empty()) {
    out << " of @" << program.mesh.name << " [";
    for (size_t a = 0; a < program.mesh.axes.size(); ++a)
      out << (a ? ", " : "") << program.mesh.axes[a].name << "=" << program.mesh.axes[a].size;
    out << "]";
  }
  out << "\n";
  if (!manifest.collectives.empty())
    out << "  #  kind                axes          op                    bytes sent/received per "
           "device\n";
  for (size_t i = 0; i < manifest.collectives.size(); ++i) {
    const auto &record = manifest.collectives[i];
    std::string pointer = record.pointer.empty() ? "-" : record.pointer;
    char head[160];
    std::snprintf(head, sizeof head, "%3zu  %-18s  %-12s  %-20s", i + 1,
                  std::string(stepKindName(record.kind)).c_str(), axesText(record.axes).c_str(),
                  pointer.c_str());
    out << head;
    for (int64_t d = 0; d < numDevices; ++d)
      out << "  d" << d << ": " << record.traffic[d].sent << "/" << record.traffic[d].received;
    out << "\n";
  }
  int64_t totalSent = 0;
  for (const auto &record : manifest.collectives)
    for (const auto &traffic : record.traffic)
      totalSent += traffic.sent;
  out << "total bytes sent (all devices): " << totalSent << "\n";
  out << "peak buffer memory per device (bytes):";
  for (int64_t d = 0; d < numDevices; ++d)
    out << "  d" << d << ": " << manifest.peakBufferBytes[d];
  out << "\n";
  return out.str();
}

} // namespace shardgen
