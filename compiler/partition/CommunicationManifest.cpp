#include "compiler/partition/CommunicationManifest.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <sstream>

namespace shardgen {
namespace {

/// Alias outputs share their input's buffer: the buffer each value lives in.
std::vector<SpmdValueId> bufferOf(const SpmdProgram &program) {
  std::vector<SpmdValueId> buffer(program.values.size());
  for (size_t v = 0; v < buffer.size(); ++v)
    buffer[v] = static_cast<SpmdValueId>(v);
  forEachStep(program.steps, [&](const SpmdStep &step) {
    if (step.kind == StepKind::Alias)
      for (size_t i = 0; i < step.outputs.size() && i < step.inputs.size(); ++i)
        buffer[step.outputs[i]] = buffer[step.inputs[i]];
  });
  return buffer;
}

/// When each buffer lives, in step indices: inputs from -1, outputs to the
/// end (numSteps); alias outputs share their input's buffer.
struct BufferLiveness {
  std::vector<SpmdValueId> buffer;
  std::vector<int64_t> first, last;

  explicit BufferLiveness(const SpmdProgram &program) : buffer(bufferOf(program)) {
    auto numSteps = static_cast<int64_t>(program.steps.size());
    first.assign(program.values.size(), numSteps);
    last.assign(program.values.size(), -2);
    for (SpmdValueId input : program.inputs)
      first[buffer[input]] = -1;
    for (int64_t s = 0; s < numSteps; ++s) {
      for (SpmdValueId v : program.steps[s].outputs)
        first[buffer[v]] = std::min(first[buffer[v]], s);
      for (SpmdValueId v : program.steps[s].inputs)
        last[buffer[v]] = std::max(last[buffer[v]], s);
      for (SpmdValueId v : program.steps[s].outputs)
        last[buffer[v]] = std::max(last[buffer[v]], s);
      // A loop's or branch's own values all live while it runs.
      forEachNestedValue(program.steps[s], [&](SpmdValueId v) {
        first[buffer[v]] = std::min(first[buffer[v]], s);
        last[buffer[v]] = std::max(last[buffer[v]], s);
      });
    }
    for (SpmdValueId output : program.liveOutValues())
      last[buffer[output]] = numSteps;
    for (SpmdValueId input : program.inputs)
      last[buffer[input]] = std::max<int64_t>(last[buffer[input]], -1);
  }

  /// A value that owns its buffer and is live at some point.
  bool ownsLiveBuffer(size_t v) const {
    return buffer[v] == static_cast<SpmdValueId>(v) && first[v] <= last[v];
  }

  /// The most bytes live at once (a buffer's bytes join at `first` and leave
  /// after `last`), and the step index + 1 where that happens.
  template <typename BytesOf>
  std::pair<int64_t, int64_t> peak(int64_t numSteps, BytesOf bytesOf) const {
    std::vector<int64_t> delta(numSteps + 3, 0); // index s + 1 for s in [-1, numSteps]
    for (size_t v = 0; v < buffer.size(); ++v) {
      if (!ownsLiveBuffer(v))
        continue;
      int64_t bytes = bytesOf(v);
      delta[first[v] + 1] = saturatingAdd(delta[first[v] + 1], bytes);
      delta[last[v] + 2] -= bytes;
    }
    int64_t live = 0, best = 0, at = 0;
    for (int64_t s = 0; s <= numSteps + 1; ++s) {
      live = saturatingAdd(live, delta[s]);
      if (live > best)
        best = live, at = s;
    }
    return {best, at};
  }

  static int64_t saturatingAdd(int64_t a, int64_t b) {
    int64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
  }
};

std::vector<int64_t> peakBufferBytes(const SpmdProgram &program) {
  auto numSteps = static_cast<int64_t>(program.steps.size());
  BufferLiveness liveness(program);
  std::vector<int64_t> peak(program.mesh.numDevices(), 0);
  for (int64_t device = 0; device < program.mesh.numDevices(); ++device)
    peak[device] =
        liveness
            .peak(numSteps, [&](size_t v) { return localBytes(program.values[v].layout, device); })
            .first;
  return peak;
}

} // namespace

CommunicationManifest computeManifest(const SpmdProgram &program) {
  CommunicationManifest manifest;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    forEachStep(std::span(program.steps).subspan(s, 1), [&](const SpmdStep &step) {
      if (!isCommunication(step.kind))
        return;
      CollectiveRecord record;
      record.step = s;
      record.collective = &step;
      record.pointer = step.pointer;
      record.kind = step.kind;
      record.axes = step.axes;
      record.traffic = stepTraffic(program, step);
      // A redistribution where every device already holds what it needs is
      // a local re-chunking (as an all_slice): nothing to list.
      if (step.kind == StepKind::Redistribute &&
          std::all_of(record.traffic.begin(), record.traffic.end(),
                      [](const DeviceTraffic &t) { return t.sent == 0 && t.received == 0; }))
        return;
      manifest.collectives.push_back(std::move(record));
    });
  }
  manifest.peakBufferBytes = peakBufferBytes(program);
  return manifest;
}

MeshMemoryPeak meshPeakBufferBytes(const SpmdProgram &program) {
  auto numSteps = static_cast<int64_t>(program.steps.size());
  BufferLiveness liveness(program);
  std::vector<int64_t> meshBytes(program.values.size(), 0);
  for (size_t v = 0; v < program.values.size(); ++v)
    if (liveness.ownsLiveBuffer(v))
      for (int64_t device = 0; device < program.mesh.numDevices(); ++device)
        meshBytes[v] = BufferLiveness::saturatingAdd(meshBytes[v],
                                                     localBytes(program.values[v].layout, device));
  auto [bytes, at] = liveness.peak(numSteps, [&](size_t v) { return meshBytes[v]; });
  MeshMemoryPeak peak;
  peak.bytes = bytes;
  int64_t step = at - 1; // back from the sweep's index
  for (size_t v = 0; v < program.values.size(); ++v)
    if (liveness.ownsLiveBuffer(v) && liveness.first[v] <= step && step <= liveness.last[v] &&
        (peak.largest < 0 || meshBytes[v] > meshBytes[peak.largest]))
      peak.largest = static_cast<SpmdValueId>(v);
  return peak;
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
                  std::string(record.collective ? stepTitle(program, *record.collective)
                                                : stepKindName(record.kind))
                      .c_str(),
                  axesText(record.axes).c_str(), pointer.c_str());
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

std::string axesText(const std::vector<AxisRef> &axes) {
  std::string text = "{";
  for (size_t i = 0; i < axes.size(); ++i)
    text += (i ? ", " : "") + printAxisRef(axes[i]);
  return text + "}";
}

} // namespace shardgen
