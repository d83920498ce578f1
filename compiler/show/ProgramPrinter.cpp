#include "compiler/show/ProgramPrinter.h"

#include <sstream>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "compiler/frontend/AttributeWriter.h"
#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/show/ShowModel.h"

namespace shardgen::show {

namespace {

/// At most this many device groups or permute pairs per step are listed.
constexpr size_t kMaxListed = 8;
/// Attribute values (constants) longer than this are summarized.
constexpr size_t kMaxAttributeText = 60;

/// A name from the graph in double quotes, escaped as JSON does.
std::string quotedName(const std::string &name) {
  return Json(name).dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool isPlainName(const std::string &name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

/// "%name", quoted and escaped (JSON rules) unless a plain identifier; a name
/// an earlier value already has gets "#id".
std::vector<std::string> valueNames(const SpmdProgram &program) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (size_t id = 0; id < program.values.size(); ++id) {
    const std::string &raw = program.values[id].name;
    std::string name = isPlainName(raw) ? raw : quotedName(raw);
    if (!taken.insert(name).second)
      name += "#" + std::to_string(id);
    names.push_back("%" + name);
  }
  return names;
}

std::string joined(const std::vector<std::string> &parts, const std::string &separator) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i)
    text += (i ? separator : "") + parts[i];
  return text;
}

std::string meshText(const Mesh &mesh) {
  std::vector<std::string> axes;
  for (const MeshAxis &axis : mesh.axes)
    axes.push_back(quotedName(axis.name) + "=" + std::to_string(axis.size));
  std::string text = "mesh @" + mesh.name + " [" + joined(axes, ", ") + "], " +
                     std::to_string(mesh.numDevices()) + " devices";
  if (!mesh.deviceIds.empty()) {
    std::vector<std::string> ids;
    for (int64_t id : mesh.deviceIds)
      ids.push_back(std::to_string(id));
    text += ", device ids by position [" + joined(ids, ", ") + "]";
  }
  return text + "\n";
}

/// One distinct local shape of a value and the mesh positions holding it.
struct LocalPiece {
  TensorType type;
  std::vector<int64_t> positions; // listed when the layout has several pieces
  int64_t count = 0;              // devices holding it
  bool shorter = false;           // shorter than the chunk in some dim
};

/// The distinct local types of a layout, in order of the first position
/// holding each.
std::vector<LocalPiece> localPieces(const ShardLayout &layout) {
  // An even layout has one piece, on every device: no pass over the mesh
  // (a value's line is then independent of the mesh's size).
  if (!layout.isDistributed() && layout.isEven())
    return {{layout.localType(0), {}, layout.numDevices(), false}};
  std::vector<LocalPiece> pieces;
  std::map<std::vector<int64_t>, size_t> byExtents;
  Shape chunk = layout.chunkShape();
  for (int64_t position = 0; position < layout.numDevices(); ++position) {
    const std::vector<int64_t> extents = layout.extentsOf(position);
    auto [it, added] = byExtents.emplace(extents, pieces.size());
    if (added)
      pieces.push_back({layout.localType(position),
                        {},
                        0,
                        extents != std::vector<int64_t>(chunk.begin(), chunk.end())});
    pieces[it->second].positions.push_back(position);
    ++pieces[it->second].count;
  }
  return pieces;
}

std::string pieceText(const Mesh &mesh, const LocalPiece &piece, size_t numPieces) {
  std::string text = printType(piece.type) + " on ";
  text += numPieces == 1 ? "all " + std::to_string(piece.count) + " devices"
                         : deviceList(mesh, piece.positions);
  if (piece.type.numElements() == 0)
    text += " (empty)";
  else if (piece.shorter)
    text += " (short)";
  return text;
}

/// "tensor<4x16xf32>", or "tensor<4x16xf32>|tensor<3x16xf32>" when devices differ.
std::string localTypeText(const ShardLayout &layout) {
  std::vector<std::string> types;
  for (const LocalPiece &piece : localPieces(layout))
    types.push_back(printType(piece.type));
  return joined(types, "|");
}

/// `byBody`: the partials of a reduce's general body (a RegionAllReduce
/// combines them), not of the layout's reducer.
std::string shardingText(const ShardLayout &layout, bool byBody) {
  // Partial pieces still to be reduced; their axes are the sharding's
  // `unreduced` ones unless the layout says otherwise.
  std::string text = printSharding(layout.sharding);
  if (!layout.partialAxes.empty())
    text +=
        " partial<" +
        (byBody ? std::string("body") : std::string(reducerName(layout.partialReducer))) + ">" +
        (layout.partialAxes == layout.sharding.unreduced ? ""
                                                         : " over " + axesText(layout.partialAxes));
  // A windowed op's operand: each piece the rows its shard's windows read.
  for (int64_t d = 0; d < layout.rank(); ++d)
    if (const std::optional<WindowReach> &reach = layout.windowReach(d))
      text += " windows on dim " + std::to_string(d) + " (" + std::to_string(reach->windows) +
              ", stride " + std::to_string(reach->stride) + ", low padding " +
              std::to_string(reach->low) + ", span " + std::to_string(reach->extent) + ")";
  return text;
}

void printValue(std::string &out, const SpmdProgram &program, const std::string &name,
                const ShardLayout &layout, bool byBody) {
  out += "  " + name + ": " + printType(layout.globalType) + " " + shardingText(layout, byBody);
  std::vector<LocalPiece> pieces = localPieces(layout);
  if (pieces.size() == 1) {
    out += " -> " + pieceText(program.mesh, pieces[0], 1) + "\n";
    return;
  }
  out += (layout.hasHalo() ? ", with halos (widest " : ", uneven (chunks of ") +
         printShape(layout.chunkShape()) + ")\n";
  for (const LocalPiece &piece : pieces)
    out += "      " + pieceText(program.mesh, piece, pieces.size()) + "\n";
}

std::string attributeText(const Op &op) {
  std::vector<std::string> fields;
  for (const auto &[key, value] : attributesToJson(op.attrs)) {
    if (value.is_array() && value.empty())
      continue; // unset lists (no batching dims): defaults, noise here
    std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (std::holds_alternative<ConstantAttrs>(op.attrs.get()) && text.size() > kMaxAttributeText)
      text = "<" + std::to_string(op.attr<ConstantAttrs>().type.numElements()) + " elements>";
    fields.push_back(std::string(key) + " = " + text);
  }
  return fields.empty() ? "" : " {" + joined(fields, ", ") + "}";
}

std::string servedOp(const SpmdStep &step) {
  std::string text = step.pointer.empty() ? "the program" : step.pointer;
  if (step.op)
    text += " (" + std::string(step.op->name()) + ")";
  return text;
}

/// "[[0, 1], [2, 3]]": the device ids of each group, in group position order.
std::string groupsText(const Mesh &mesh, const std::vector<AxisRef> &axes) {
  std::vector<std::string> groups;
  int64_t numGroups = 0;
  for (int64_t position = 0; position < mesh.numDevices(); ++position) {
    if (groupLeader(mesh, axes, position) != position)
      continue;
    if (numGroups++ >= static_cast<int64_t>(kMaxListed))
      continue;
    std::vector<std::string> ids;
    for (int64_t member : groupDevices(mesh, axes, position))
      ids.push_back(std::to_string(mesh.deviceId(member)));
    groups.push_back("[" + joined(ids, ", ") + "]");
  }
  std::string text = "[" + joined(groups, ", ");
  if (numGroups > static_cast<int64_t>(kMaxListed))
    text += ", ... " + std::to_string(numGroups) + " groups";
  return text + "]";
}

std::string pairsText(const Mesh &mesh, const SpmdStep &step) {
  std::vector<std::string> pairs;
  size_t moving = 0;
  for (auto [source, target] : step.pairs) {
    if (source == target)
      continue;
    if (moving++ < kMaxListed)
      pairs.push_back(std::to_string(mesh.deviceId(source)) + "->" +
                      std::to_string(mesh.deviceId(target)));
  }
  if (moving > kMaxListed)
    pairs.push_back("... " + std::to_string(moving) + " pairs");
  return "[" + joined(pairs, ", ") + "]";
}

/// "256 B", or "0-256 B (768 B in all)" when devices differ.
std::string bytesText(const std::vector<int64_t> &bytes) {
  auto [low, high] = std::minmax_element(bytes.begin(), bytes.end());
  if (*low == *high)
    return std::to_string(*low) + " B";
  int64_t total = 0;
  for (int64_t b : bytes)
    total = __builtin_add_overflow(total, b, &total) ? INT64_MAX : total;
  return std::to_string(*low) + "-" + std::to_string(*high) + " B (" + std::to_string(total) +
         " B in all)";
}

/// The reducer of a collective: "<add>" after its name, "<body of /ops/3>"
/// for a reduce's own body.
std::string reducerText(const SpmdStep &step) {
  if (step.kind == StepKind::RegionAllReduce)
    return "<body of " + step.pointer + ">";
  bool reduces = step.kind == StepKind::AllReduce || step.kind == StepKind::ReduceScatter;
  return reduces ? "<" + std::string(reducerName(step.reducer)) + ">" : "";
}

/// The collective's dims after its operands: " dim 1", " split 0 concat 1".
std::string collectiveDims(const SpmdStep &step) {
  switch (step.kind) {
  case StepKind::ReduceScatter:
  case StepKind::AllGather:
    return " dim " + std::to_string(step.dimension);
  case StepKind::AllToAll:
    return " split " + std::to_string(step.dimension) + " concat " +
           std::to_string(step.concatDimension);
  default:
    return "";
  }
}

class Printer {
public:
  explicit Printer(const SpmdProgram &program) : program_(program), names_(valueNames(program)) {}

  std::string print() {
    std::string graphName = program_.graph ? program_.graph->name : "";
    out_ += "// partitioned program " + quotedName(graphName) + ": " +
            std::to_string(program_.values.size()) + " values, " +
            std::to_string(program_.steps.size()) + " steps on every device\n";
    out_ += meshText(program_.mesh);
    out_ += "\nvalues (global type, sharding -> local type per device):\n";
    std::vector<bool> byBody(program_.values.size(), false);
    forEachStep(program_.steps, [&](const SpmdStep &step) {
      if (step.kind == StepKind::RegionAllReduce)
        for (SpmdValueId input : step.inputs)
          byBody[input] = true;
    });
    for (size_t id = 0; id < program_.values.size(); ++id)
      printValue(out_, program_, names_[id], program_.layout(static_cast<SpmdValueId>(id)),
                 byBody[id]);
    out_ += "\nprogram:\n  inputs " + namesOf(program_.inputs) + "\n";
    for (size_t s = 0; s < program_.steps.size(); ++s)
      printStep(s, program_.steps[s]);
    out_ += "  return " + namesOf(program_.outputs) + "\n";
    if (!program_.gatheredOutputs.empty() && program_.gatheredOutputs != program_.outputs)
      out_ += "  (the global call style returns " + namesOf(program_.gatheredOutputs) +
              ": unreduced outputs summed)\n";
    return std::move(out_);
  }

private:
  std::string namesOf(const std::vector<SpmdValueId> &ids) const {
    std::vector<std::string> names;
    for (SpmdValueId id : ids)
      names.push_back(names_[id]);
    return names.empty() ? "()" : joined(names, ", ");
  }

  std::string localTypesOf(const std::vector<SpmdValueId> &ids) const {
    std::vector<std::string> types;
    for (SpmdValueId id : ids)
      types.push_back(localTypeText(program_.layout(id)));
    return types.size() == 1 ? types[0] : "(" + joined(types, ", ") + ")";
  }

  void printStep(size_t index, const SpmdStep &step) {
    std::string head = "  " + std::to_string(index) + ": " +
                       (step.outputs.empty() ? "" : namesOf(step.outputs) + " = ");
    std::string operands = "(" + namesOf(step.inputs) + ")";
    if (step.inputs.empty())
      operands = "()";
    if (isStructured(step))
      return printStructured(head, operands, step);
    if (step.kind == StepKind::Compute && step.op) {
      out_ += head + std::string(step.op->name()) + operands + attributeText(*step.op) + "  // " +
              step.pointer + "\n";
      out_ +=
          "       local " + localTypesOf(step.inputs) + " -> " + localTypesOf(step.outputs) + "\n";
      return;
    }
    std::string kind(stepTitle(program_, step));
    std::string role = isBodyCollective(step) ? "body collective " + servedOp(step)
                                              : "reshard for " + servedOp(step);
    if (step.kind == StepKind::Alias) {
      out_ += head + "alias" + operands + "  // entering or leaving the body of " + servedOp(step) +
              ": same buffer, new layout\n";
      return;
    }
    if (step.kind == StepKind::AllSlice) {
      out_ += head + "all_slice" + operands + "  // " + role +
              ": each device keeps its part, nothing moves\n";
      return;
    }
    out_ += head + kind + reducerText(step) + operands + collectiveDims(step);
    if (!step.axes.empty())
      out_ += " over " + axesText(step.axes);
    out_ += "  // " + role + "\n";
    if (!isCommunication(step.kind) || step.inputs.empty() || step.outputs.empty())
      return;
    const ShardLayout &input = program_.layout(step.inputs[0]);
    out_ += "       " + (step.kind == StepKind::CollectivePermute
                             ? "pairs " + pairsText(program_.mesh, step)
                             : "groups " + groupsText(program_.mesh, step.axes));
    std::vector<int64_t> sent, received;
    for (const DeviceTraffic &traffic : stepTraffic(program_, step)) {
      sent.push_back(traffic.sent);
      received.push_back(traffic.received);
    }
    out_ += "; per device: sends " + bytesText(sent) + ", receives " + bytesText(received);
    if (!input.isEven())
      out_ += "; uneven pieces (padded inside the collective)";
    out_ += "\n";
  }

  /// A loop or branch: its blocks' steps indented under it, each block with
  /// the values it yields.
  void printStructured(const std::string &head, const std::string &operands, const SpmdStep &step) {
    const bool loop = step.kind == StepKind::Loop;
    out_ += head + std::string(stepKindName(step.kind)) + operands;
    if (loop)
      out_ += " carried (" + namesOf(step.carried) + ")";
    out_ += "  // " + (step.pointer.empty() ? std::string("the program") : step.pointer) + "\n";
    for (size_t b = 0; b < step.blocks.size(); ++b) {
      const SpmdBlock &block = step.blocks[b];
      out_ += "       " +
              (loop ? std::string(b == 0 ? "condition" : "body") : "case " + std::to_string(b)) +
              ":\n";
      std::string outer = std::move(out_);
      out_.clear();
      for (size_t s = 0; s < block.steps.size(); ++s)
        printStep(s, block.steps[s]);
      out_ += "  yields " + namesOf(block.results) + "\n";
      std::string inner = std::move(out_);
      out_ = std::move(outer);
      std::istringstream lines(inner);
      for (std::string line; std::getline(lines, line);)
        out_ += "     " + line + "\n";
    }
  }

  const SpmdProgram &program_;
  std::vector<std::string> names_;
  std::string out_;
};

} // namespace

std::string printProgram(const SpmdProgram &program) { return Printer(program).print(); }

} // namespace shardgen::show
