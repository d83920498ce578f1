#include "compiler/codegen/AotInterface.h"

#include <algorithm>

#include "compiler/codegen/CodeWriter.h"
#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/PieceIndexing.h"
#include "compiler/codegen/StridedWalk.h"
#include "compiler/ir/Distribution.h"
#include "compiler/ir/Sharding.h"

namespace shardgen::codegen {
namespace {

/// "{a, b, 1}": `values` padded with `pad` to `size` entries.
std::string paddedList(std::vector<std::string> values, int64_t size, const std::string &pad) {
  values.resize(static_cast<size_t>(std::max<int64_t>(size, 1)), pad);
  std::string out;
  for (const std::string &value : values)
    out += (out.empty() ? "" : ", ") + value;
  return "{" + out + "}";
}

std::vector<std::string> texts(const std::vector<int64_t> &values) {
  std::vector<std::string> out;
  for (int64_t value : values)
    out.push_back(str(value));
  return out;
}

std::string layoutTable(const SpmdProgram &program, const std::vector<SpmdValueId> &ids,
                        const std::string &name, int64_t maxRank) {
  std::string out =
      "inline constexpr Layout " + name + "[" + str(std::max<size_t>(ids.size(), 1)) + "] = {\n";
  for (SpmdValueId id : ids) {
    const ShardLayout &layout = program.layout(id);
    // A distributed tensor's sharding field is a placeholder (replicated): the
    // distribution is what says how it is split.
    std::string split = layout.isDistributed() ? printDistribution(*layout.distribution)
                                               : printSharding(layout.sharding);
    out += "    {" + cppStringLiteral(meshDescription(program.mesh)) + ", " +
           cppStringLiteral(split) + ", " + str(layout.rank()) + ", " +
           paddedList(texts(layout.globalType.shape), maxRank, "1") + "},\n";
  }
  if (ids.empty())
    out += "    {\"\", \"\", 0, {0}},\n";
  return out + "};\n";
}

/// constexpr Piece <function>(int64_t tensor, int64_t position).
std::string pieceFunction(const SpmdProgram &program, const std::vector<SpmdValueId> &ids,
                          const std::string &function, int64_t maxRank) {
  CodeWriter out;
  {
    auto body = out.block("constexpr Piece " + function + "(int64_t tensor, int64_t position)");
    out.lines("if (position < 0 || position >= kNumDevices)\n  return Piece{};");
    out.lines("switch (tensor) {"); // case labels stay at the switch's indent
    for (size_t i = 0; i < ids.size(); ++i) {
      const ShardLayout &layout = program.layout(ids[i]);
      std::vector<std::string> offsets;
      for (int64_t d = 0; d < layout.rank(); ++d)
        offsets.push_back(pieceOffset(layout, d));
      // A distributed value's piece is its local buffer [k, shardShape...] (its
      // dims unsharded: offsets 0).
      std::vector<PieceClass> classes = localShapeClasses(program.mesh, layout);
      std::vector<std::string> returns;
      const bool token = layout.globalType.isToken(); // no elements, whatever its shape
      for (const PieceClass &piece : classes)
        returns.push_back("return Piece{" + paddedList(texts(piece.extents), maxRank, "1") + ", " +
                          paddedList(offsets, maxRank, "0") + ", " +
                          str(token ? 0 : product(piece.extents)) + "};");
      auto branch = out.block("case " + str(static_cast<int64_t>(i)) + ":");
      out.lines(pieceLocals(program.mesh, layout) + dispatchOnClass(classes, returns));
      out.lines("break;");
    }
    out.lines("default:\n  break;\n}");
    out.lines("return Piece{};");
  }
  return out.take();
}

} // namespace

std::string meshDeclarations(const Mesh &mesh) {
  std::string axes;
  for (const MeshAxis &axis : mesh.axes)
    axes += (axes.empty() ? "" : ", ") + std::string("{") + cppStringLiteral(axis.name) + ", " +
            str(axis.size) + "}";
  std::string out =
      "inline constexpr int64_t kNumMeshAxes = " + str(static_cast<int64_t>(mesh.axes.size())) +
      ";\ninline constexpr MeshAxis kMeshAxes[kNumMeshAxes > 0 ? kNumMeshAxes : 1] = {" +
      (axes.empty() ? "{\"\", 1}" : axes) + "};\n\n";
  const bool permuted = mesh.deviceIds.size() > 1 && mesh.permutesDevices();
  out += "/// The mesh position of the device with id `deviceId` (the mesh's device_ids\n"
         "/// map positions to ids), and the id at a position; -1 outside the mesh.\n";
  if (!permuted)
    return out + "constexpr int64_t devicePosition(int64_t deviceId) {\n"
                 "  return deviceId >= 0 && deviceId < kNumDevices ? deviceId : -1;\n}\n"
                 "constexpr int64_t deviceIdAt(int64_t position) {\n"
                 "  return position >= 0 && position < kNumDevices ? position : -1;\n}\n";
  return out + "inline constexpr int64_t kDeviceIds[kNumDevices] = {" + joinInts(mesh.deviceIds) +
         "};\n"
         "constexpr int64_t devicePosition(int64_t deviceId) {\n"
         "  for (int64_t position = 0; position < kNumDevices; ++position)\n"
         "    if (kDeviceIds[position] == deviceId)\n      return position;\n  return -1;\n}\n"
         "constexpr int64_t deviceIdAt(int64_t position) {\n"
         "  return position >= 0 && position < kNumDevices ? kDeviceIds[position] : -1;\n}\n";
}

std::string layoutDeclarations(const SpmdProgram &program, const std::vector<SpmdValueId> &inputs,
                               const std::vector<SpmdValueId> &outputs) {
  int64_t maxRank = 1;
  for (const auto *ids : {&inputs, &outputs})
    for (SpmdValueId id : *ids)
      maxRank = std::max(maxRank,
                         program.layout(id).rank() + (program.layout(id).isDistributed() ? 1 : 0));
  return "/// The highest rank of an input or output (at least 1).\n"
         "inline constexpr int64_t kMaxRank = " +
         str(maxRank) + ";\n\n" +
         "/// How a tensor is split over the mesh.\n"
         "struct Layout {\n"
         "  const char *mesh;        // \"@mesh [data=2, model=2]\": the program's mesh\n"
         "  const char *sharding;    // \"<@mesh, [{data}, {}]>\" (Shardy form), or a\n"
         "                           // distribution's JSON for a distributed tensor\n"
         "  int64_t rank;\n"
         "  int64_t shape[kMaxRank]; // the global shape (1 from `rank` on)\n"
         "};\n\n"
         "/// One device's piece of a tensor: shape[d] elements from offset[d] of\n"
         "/// the global tensor on each dim d < rank (1 and 0 from rank on), dense\n"
         "/// and row-major in the per-device call styles. A device holding nothing\n"
         "/// of it has numElements 0. For a distributed tensor, its local buffer\n"
         "/// [k, shard_shape...] (rank + 1 dims, offsets 0; inputShardShape).\n"
         "struct Piece {\n"
         "  int64_t shape[kMaxRank];\n"
         "  int64_t offset[kMaxRank];\n"
         "  int64_t numElements;\n"
         "};\n\n" +
         layoutTable(program, inputs, "kInputLayouts", maxRank) +
         layoutTable(program, outputs, "kOutputLayouts", maxRank) +
         "\n/// The piece of input `tensor` (output `tensor`) on mesh position `position`;\n"
         "/// all zeros outside the program's tensors and positions.\n" +
         pieceFunction(program, inputs, "inputPiece", maxRank) +
         pieceFunction(program, outputs, "outputPiece", maxRank);
}

} // namespace shardgen::codegen
