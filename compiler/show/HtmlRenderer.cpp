#include "compiler/show/HtmlRenderer.h"

#include <algorithm>
#include <cstdio>
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
// A block lists at most this many ranges of device ids (its tooltip says
// how many devices there are in all).
constexpr size_t kMaxDeviceRanges = 8;
// Per-device figures (manifest columns) for at most this many devices: the
// page's MAX_DEVICE_COLUMNS.
constexpr int64_t kMaxDeviceColumns = 16;
// Mapping a tensor's blocks is a pass over the mesh's devices; the page maps
// tensors while the devices passed over stay within this, and lists the
// rest without blocks (on a 2^20-device mesh: 16 tensors; on 1,024
// devices: 16,384).
constexpr int64_t kMaxMappedTensorDevices = int64_t(1) << 24;

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

/// The block's device ids as ascending ranges [first, last], at most
/// kMaxDeviceRanges of them.
json deviceRanges(const Block &block, const Mesh &mesh) {
  json ranges = json::array();
  for (const auto &[first, last] : deviceIdRanges(mesh, block.positions)) {
    if (ranges.size() == kMaxDeviceRanges)
      break;
    ranges.push_back({first, last});
  }
  return ranges;
}

json blockJson(const Block &block, const Mesh &mesh) {
  json box = json::array();
  for (const Interval &interval : block.box)
    box.push_back({interval.offset, interval.extent});
  return {{"devices", deviceRanges(block, mesh)},
          {"deviceCount", block.positions.size()},
          {"box", std::move(box)},
          {"uneven", block.uneven},
          {"empty", block.empty}};
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
                 {"mapped", view.mapped},
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
  // Cells of the drawn cuts, row-major over them, numbering the blocks they
  // show in order of first appearance; only those blocks are listed (and
  // the empty one), so the data is bounded by the drawn cells.
  json cells = json::array(), blocks = json::array();
  std::map<int64_t, size_t> listed; // map's block index -> index in `blocks`
  if (map.numCells() > 0) {
    std::vector<int64_t> index(shown.size(), 0);
    while (true) {
      const int64_t block = map.cellBlock[map.cellIndex(index)];
      auto [at, added] = listed.try_emplace(block, blocks.size());
      if (added)
        blocks.push_back(blockJson(map.blocks[block], mesh));
      cells.push_back(at->second);
      size_t d = index.size();
      while (d > 0 && ++index[d - 1] == static_cast<int64_t>(shown[d - 1]))
        index[--d] = 0;
      if (d == 0)
        break;
    }
  }
  size_t blockCount = 0, fewestHolders = 0, mostHolders = 0;
  for (const Block &block : map.blocks) {
    if (block.empty) {
      blocks.push_back(blockJson(block, mesh));
      continue;
    }
    fewestHolders =
        blockCount ? std::min(fewestHolders, block.positions.size()) : block.positions.size();
    mostHolders = std::max(mostHolders, block.positions.size());
    ++blockCount;
  }
  tensor["cells"] = std::move(cells);
  tensor["blocks"] = std::move(blocks);
  tensor["blockCount"] = blockCount;
  tensor["holders"] = {fewestHolders, mostHolders};
  return tensor;
}

json meshJson(const Mesh &mesh) {
  json axes = json::array();
  for (const auto &axis : mesh.axes)
    axes.push_back({{"name", axis.name}, {"size", axis.size}});
  // The ids as the graph gives them (no longer than the graph); without
  // device_ids the page takes a device's position as its id.
  return {{"name", mesh.name},
          {"axes", std::move(axes)},
          {"size", mesh.numDevices()},
          {"ids", mesh.deviceIds}};
}

json manifestJson(const SpmdProgram &program) {
  CommunicationManifest manifest = computeManifest(program);
  json collectives = json::array();
  // Per-device figures of the first kMaxDeviceColumns devices only (the
  // page's columns); totals over all.
  auto firstDevices = [](const auto &perDevice) {
    return json(std::vector<int64_t>(perDevice.begin(),
                                     perDevice.begin() +
                                         std::min<int64_t>(perDevice.size(), kMaxDeviceColumns)));
  };
  for (const CollectiveRecord &record : manifest.collectives) {
    std::vector<int64_t> sent, received;
    int64_t sentTotal = 0;
    for (const DeviceTraffic &traffic : record.traffic) {
      sent.push_back(traffic.sent);
      received.push_back(traffic.received);
      if (__builtin_add_overflow(sentTotal, traffic.sent, &sentTotal))
        sentTotal = INT64_MAX;
    }
    const std::string kind(record.collective ? stepTitle(program, *record.collective)
                                             : stepKindName(record.kind));
    collectives.push_back({{"kind", kind},
                           {"axes", axesText(record.axes)},
                           {"pointer", record.pointer},
                           {"sent", firstDevices(sent)},
                           {"received", firstDevices(received)},
                           {"sentTotal", sentTotal}});
  }
  return {{"collectives", std::move(collectives)},
          {"peak", firstDevices(manifest.peakBufferBytes)}};
}

} // namespace

std::string pageData(const Graph &graph, const PropagationResult &result,
                     const SpmdProgram &program, const HtmlInput &input) {
  json tensors = json::array();
  std::map<ValueId, size_t> tensorOf; // graph value -> its view in `tensors`
  int64_t mappedDevices = 0;
  auto blocksWanted = [&] {
    if (mappedDevices > kMaxMappedTensorDevices - program.mesh.numDevices())
      return Blocks::Skipped;
    mappedDevices += program.mesh.numDevices();
    return Blocks::Mapped;
  };
  auto addValue = [&](ValueId value) {
    if (tensorOf.count(value))
      return tensorOf[value];
    tensors.push_back(
        tensorJson(valueView(graph, result, program, value, blocksWanted()), program.mesh));
    return tensorOf[value] = tensors.size() - 1;
  };
  // The values asked for first: within the budget of mapped tensors.
  json selected = json::array();
  for (const std::string &name : input.selected)
    for (size_t v = 0; v < graph.values.size(); ++v)
      if (graph.values[v].name == name)
        selected.push_back(addValue(static_cast<ValueId>(v)));
  json inputs = json::array(), outputs = json::array(), ops = json::array();
  for (const auto &arg : graph.main.args)
    inputs.push_back(addValue(arg.value));
  for (size_t i = 0; i < graph.main.results.size(); ++i) {
    tensors.push_back(
        tensorJson(outputView(graph, result, program, i, blocksWanted()), program.mesh));
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
  json data = {{"file", input.fileLabel},
               {"graph", graph.name},
               {"strategy", std::string(strategyName(result.strategy))},
               {"mesh", meshJson(program.mesh)},
               {"tensors", std::move(tensors)},
               {"inputs", std::move(inputs)},
               {"outputs", std::move(outputs)},
               {"ops", std::move(ops)},
               {"manifest", manifestJson(program)},
               {"maxMappedTensorDevices", kMaxMappedTensorDevices},
               {"selected", std::move(selected)}};
  return scriptSafeJson(data.dump(-1, ' ', false, json::error_handler_t::replace));
}

namespace {

/// The code point of the three-byte UTF-8 sequence at `text[i]` if it is one
/// the page's data writes as a \u escape: U+2028 and U+2029 (line ends in
/// older JavaScript) and the bidi controls U+200E, U+200F, U+202A-U+202E,
/// U+2066-U+2069 (no raw reordering in the page's source). Else 0.
unsigned escapedInScript(const std::string &text, size_t i) {
  if (i + 2 >= text.size() || text[i] != '\xe2')
    return 0;
  const auto second = static_cast<unsigned char>(text[i + 1]);
  const auto third = static_cast<unsigned char>(text[i + 2]);
  if (second < 0x80 || second > 0x81 || third < 0x80 || third > 0xbf)
    return 0;
  const unsigned code = 0x2000 + ((second - 0x80) << 6) + (third - 0x80);
  const bool escaped = code == 0x200e || code == 0x200f || (code >= 0x2028 && code <= 0x202e) ||
                       (code >= 0x2066 && code <= 0x2069);
  return escaped ? code : 0;
}

} // namespace

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
    else if (unsigned code = escapedInScript(json, i)) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", code);
      out += escape;
      i += 2;
    } else if (c == '\xd8' && i + 1 < json.size() && json[i + 1] == '\x9c') {
      out += "\\u061c"; // ARABIC LETTER MARK, a bidi control too
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

std::string renderHtml(const Graph &graph, const PropagationResult &result,
                       const SpmdProgram &program, const HtmlInput &input) {
  return std::string(kPageHead) + pageData(graph, result, program, input) + kPageTail;
}

} // namespace shardgen::show
