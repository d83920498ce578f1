#include "compiler/codegen/EmitterContext.h"

#include <algorithm>
#include <map>

#include "compiler/codegen/PieceIndexing.h"

namespace shardgen::codegen {

std::string indented(const std::string &code, int indent) {
  std::string out, pad(indent, ' ');
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string::npos)
      end = code.size();
    if (end > start)
      out += pad + code.substr(start, end - start);
    out += "\n";
    start = end + 1;
  }
  return out;
}

void EmitterContext::addStep(const std::string &code, int indent) {
  steps += indented(code, indent);
}

void EmitterContext::pieceKey(const std::vector<SpmdValueId> &ids, int64_t device,
                              std::vector<int64_t> &key, bool withOffsets) const {
  for (SpmdValueId id : ids) {
    const ShardLayout &piece = layout(id);
    for (int64_t d = 0; d < piece.rank(); ++d) {
      key.push_back(piece.extent(device, d));
      if (withOffsets)
        key.push_back(piece.offset(device, d));
    }
  }
}

void EmitterContext::addPerDevice(const std::function<void(int64_t, std::vector<int64_t> &)> &keyOf,
                                  const std::function<std::string(int64_t)> &codeFor) {
  // Devices by class (in order of first appearance), then classes by code.
  std::map<std::vector<int64_t>, size_t> classOfKey;
  std::vector<std::vector<int64_t>> classDevices;
  std::vector<int64_t> key;
  for (int64_t d = 0; d < numDevices(); ++d) {
    key.clear();
    keyOf(d, key);
    auto found = classOfKey.find(key);
    if (found == classOfKey.end()) {
      found = classOfKey.emplace(key, classDevices.size()).first;
      classDevices.emplace_back();
    }
    classDevices[found->second].push_back(d);
  }
  std::vector<std::string> bodies;
  std::vector<std::vector<int64_t>> devices;
  std::map<std::string, size_t> index;
  for (std::vector<int64_t> &members : classDevices) {
    auto [it, inserted] = index.emplace(codeFor(members.front()), bodies.size());
    if (inserted) {
      bodies.push_back(it->first);
      devices.emplace_back(std::move(members));
    } else {
      std::vector<int64_t> &merged = devices[it->second];
      merged.insert(merged.end(), members.begin(), members.end());
    }
  }
  if (bodies.size() == 1) {
    if (!bodies[0].empty())
      addStep(bodies[0]);
    return;
  }
  // One branch per distinct body, selected by coordinate ranges: the code
  // grows with the distinct bodies, not with the devices.
  std::string code;
  for (size_t b = 0; b < bodies.size(); ++b) {
    if (bodies[b].empty())
      continue; // devices with nothing to do
    std::sort(devices[b].begin(), devices[b].end());
    std::string condition = devicesCondition(program.mesh, devices[b]);
    code += (code.empty() ? "if (" : "else if (") + condition + ") {\n" + indented(bodies[b], 2) +
            "}\n";
  }
  addStep(code);
}

std::string EmitterContext::freshName(const std::string &prefix) {
  return prefix + std::to_string(nextConstant++);
}

std::string joinInts(const std::vector<int64_t> &values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out;
}

} // namespace shardgen::codegen
