#include "compiler/show/HtmlRenderer.h"

#include <algorithm>
#include <functional>
#include <map>

#include <nlohmann/json.hpp>

#include "compiler/partition/CommunicationManifest.h"
#include "compiler/show/HtmlPage.h"
#include "compiler/show/ShowModel.h"

namespace shardgen::show {

namespace {

using nlohmann::json;

// The page draws at most this many blocks along each of the last two dims,
// and at most kMaxHtmlSlices slices over the leading dims.
constexpr size_t kMaxHtmlCuts = 32;
constexpr size_t kMaxHtmlSlices = 16;

/// Per dim, how many of the map's cuts the page draws.
std::vector<size_t> shownCuts(const BlockMap &map) {
  size_t rank = map.cuts.size();
  std::vector<size_t> shown(rank);
  size_t slices = 1;
  for (size_t d = 0; d < rank; ++d) {
    size_t cap = d + 2 >= rank ? kMaxHtmlCuts : std::max<size_t>(1, kMaxHtmlSlices / slices);
    shown[d] = std::min(map.cuts[d].size(), cap);
    if (d + 2 < rank)
      slices *= shown[d];
  }
  return shown;
}

json tensorJson(const TensorView &view, const Mesh &mesh) {
  const BlockMap &map = view.blocks;
  json tensor = {{"name", view.name},
                 {"role", view.role},
                 {"pointer", view.pointer},
                 {"type", printType(view.type)},
                 {"shape", view.type.shape},
                 {"sharding", view.sharding},
                 {"origin", view.origin},
                 {"explain", view.explanation},
                 {"bodyLocal", view.bodyLocal},
                 {"partial", map.partialAxes.empty() ? "" : axesText(map.partialAxes)}};
  std::vector<size_t> shown = shownCuts(map);
  json cuts = json::array(), total = json::array();
  for (size_t d = 0; d < map.cuts.size(); ++d) {
    json dim = json::array();
    for (size_t i = 0; i < shown[d]; ++i)
      dim.push_back({map.cuts[d][i].offset, map.cuts[d][i].extent});
    cuts.push_back(std::move(dim));
    total.push_back(map.cuts[d].size());
  }
  tensor["cuts"] = std::move(cuts);
  tensor["cutsTotal"] = std::move(total);
  // Cells of the drawn cuts, row-major over them.
  json cells = json::array();
  if (map.numCells() > 0) {
    std::vector<int64_t> index(shown.size(), 0);
    while (true) {
      cells.push_back(map.cellBlock[map.cellIndex(index)]);
      size_t d = index.size();
      while (d > 0 && ++index[d - 1] == static_cast<int64_t>(shown[d - 1]))
        index[--d] = 0;
      if (d == 0)
        break;
    }
  }
  tensor["cells"] = std::move(cells);
  json blocks = json::array();
  for (const Block &block : map.blocks) {
    json devices = json::array();
    for (int64_t position : block.positions)
      devices.push_back(mesh.deviceId(position));
    json box = json::array();
    for (const Interval &interval : block.box)
      box.push_back({interval.offset, interval.extent});
    blocks.push_back({{"devices", std::move(devices)},
                      {"box", std::move(box)},
                      {"uneven", block.uneven},
                      {"empty", block.empty}});
  }
  tensor["blocks"] = std::move(blocks);
  return tensor;
}

json meshJson(const Mesh &mesh) {
  json axes = json::array(), ids = json::array();
  for (const auto &axis : mesh.axes)
    axes.push_back({{"name", axis.name}, {"size", axis.size}});
  for (int64_t p = 0; p < mesh.numDevices(); ++p)
    ids.push_back(mesh.deviceId(p));
  return {{"name", mesh.name}, {"axes", std::move(axes)}, {"ids", std::move(ids)}};
}

json manifestJson(const SpmdProgram &program) {
  CommunicationManifest manifest = computeManifest(program);
  json collectives = json::array();
  for (const CollectiveRecord &record : manifest.collectives) {
    json sent = json::array(), received = json::array();
    for (const DeviceTraffic &traffic : record.traffic) {
      sent.push_back(traffic.sent);
      received.push_back(traffic.received);
    }
    collectives.push_back({{"kind", std::string(stepKindName(record.kind))},
                           {"axes", axesText(record.axes)},
                           {"pointer", record.pointer},
                           {"sent", std::move(sent)},
                           {"received", std::move(received)}});
  }
  return {{"collectives", std::move(collectives)}, {"peak", manifest.peakBufferBytes}};
}

} // namespace

std::string pageData(const Graph &graph, const PropagationResult &result,
                     const SpmdProgram &program, const HtmlInput &input) {
  json tensors = json::array();
  std::map<ValueId, size_t> tensorOf; // graph value -> its view in `tensors`
  auto addValue = [&](ValueId value) {
    if (tensorOf.count(value))
      return tensorOf[value];
    tensors.push_back(tensorJson(valueView(graph, result, program, value), program.mesh));
    return tensorOf[value] = tensors.size() - 1;
  };
  json inputs = json::array(), outputs = json::array(), ops = json::array();
  for (const auto &arg : graph.main.args)
    inputs.push_back(addValue(arg.value));
  for (size_t i = 0; i < graph.main.results.size(); ++i) {
    tensors.push_back(tensorJson(outputView(graph, result, program, i), program.mesh));
    outputs.push_back(tensors.size() - 1);
  }
  // Ops in program order, a manual computation's body right after it.
  std::function<void(const Region &, int)> visit = [&](const Region &region, int depth) {
    for (const Op &op : region.ops) {
      json operands = json::array(), results = json::array(), args = json::array();
      for (ValueId operand : op.operands)
        operands.push_back(addValue(operand));
      for (ValueId value : op.results)
        results.push_back(addValue(value));
      const bool program = regionRole(op.kind) == RegionRole::Program;
      if (program)
        for (const Region &body : op.regions)
          for (const auto &arg : body.args)
            args.push_back(addValue(arg.value));
      ops.push_back({{"op", std::string(op.name())},
                     {"pointer", op.pointer},
                     {"depth", depth},
                     {"operands", std::move(operands)},
                     {"results", std::move(results)},
                     {"bodyArgs", std::move(args)}});
      if (program)
        for (const Region &body : op.regions)
          visit(body, depth + 1);
    }
  };
  visit(graph.main, 0);
  json selected = json::array();
  for (const std::string &name : input.selected)
    for (size_t v = 0; v < graph.values.size(); ++v)
      if (graph.values[v].name == name)
        selected.push_back(addValue(static_cast<ValueId>(v)));
  json data = {{"file", input.fileLabel},
               {"graph", graph.name},
               {"strategy", std::string(strategyName(result.strategy))},
               {"mesh", meshJson(program.mesh)},
               {"tensors", std::move(tensors)},
               {"inputs", std::move(inputs)},
               {"outputs", std::move(outputs)},
               {"ops", std::move(ops)},
               {"manifest", manifestJson(program)},
               {"selected", std::move(selected)}};
  return scriptSafeJson(data.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string scriptSafeJson(const std::string &json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else if (c == '\xe2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
             (json[i + 2] == '\xa8' || json[i + 2] == '\xa9'))
      out += json[i += 2] == '\xa8' ? "\\u2028" : "\\u2029";
    else
      out += c;
  }
  return out;
}

std::string renderHtml(const Graph &graph, const PropagationResult &result,
                       const SpmdProgram &program, const HtmlInput &input) {
  return std::string(kPageHead) + pageData(graph, result, program, input) + kPageTail;
}

} // namespace shardgen::show
