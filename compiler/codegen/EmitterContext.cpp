#include "compiler/codegen/EmitterContext.h"

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

void EmitterContext::addPerDevice(const std::vector<std::string> &codePerDevice) {
  // Group devices by identical code, in order of first appearance.
  std::vector<std::string> bodies;
  std::vector<std::vector<int64_t>> devices;
  std::map<std::string, size_t> index;
  for (size_t d = 0; d < codePerDevice.size(); ++d) {
    auto [it, inserted] = index.emplace(codePerDevice[d], bodies.size());
    if (inserted) {
      bodies.push_back(codePerDevice[d]);
      devices.emplace_back();
    }
    devices[it->second].push_back(static_cast<int64_t>(d));
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
