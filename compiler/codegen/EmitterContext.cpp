#include "compiler/codegen/EmitterContext.h"

#include <algorithm>
#include <map>

#include "compiler/codegen/PieceIndexing.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::codegen {

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

void EmitterContext::writePerDevice(
    CodeWriter &out, const std::function<void(int64_t, std::vector<int64_t> &)> &keyOf,
    const std::function<std::string(int64_t)> &codeFor) const {
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
    out.lines(bodies[0]);
    return;
  }
  // One branch per distinct body, selected by coordinate ranges: the code
  // grows with the distinct bodies, not with the devices.
  bool first = true;
  for (size_t b = 0; b < bodies.size(); ++b) {
    if (bodies[b].empty())
      continue; // devices with nothing to do
    std::sort(devices[b].begin(), devices[b].end());
    std::string condition = devicesCondition(program.mesh, devices[b]);
    auto branch = out.block((first ? "if (" : "else if (") + condition + ")");
    out.lines(bodies[b]);
    first = false;
  }
}

void EmitterContext::writePerPieceShape(CodeWriter &out, const std::vector<SpmdValueId> &ids,
                                        const std::function<std::string(int64_t)> &codeFor) const {
  // Pieces with a halo are no chunk kinds, and a windowed op's code on them
  // depends on where they lie (its padding at the dim's ends): per device
  // class of piece shapes and offsets.
  if (std::any_of(ids.begin(), ids.end(), [&](SpmdValueId id) { return layout(id).hasHalo(); }))
    return writePerDevice(
        out, [&](int64_t d, std::vector<int64_t> &key) { pieceKey(ids, d, key, true); }, codeFor);
  // The sharded dims of the distinct layouts, each with its chunk kinds.
  struct ShardedDim {
    const ShardLayout *layout;
    int64_t dim;
    std::vector<DimCase> cases;
  };
  std::vector<const ShardLayout *> layouts;
  std::vector<ShardedDim> dims;
  for (SpmdValueId id : ids) {
    const ShardLayout &piece = layout(id);
    bool known = false;
    for (const ShardLayout *seen : layouts) {
      bool same = seen->globalType.shape == piece.globalType.shape;
      for (int64_t d = 0; same && d < piece.rank(); ++d)
        same = seen->sharding.dims[d].axes == piece.sharding.dims[d].axes;
      known = known || same;
    }
    if (known)
      continue;
    const std::string suffix = "_" + std::to_string(layouts.size());
    layouts.push_back(&piece);
    for (int64_t d = 0; d < piece.rank(); ++d)
      if (std::vector<DimCase> cases = dimCases(piece, d, suffix); cases.size() > 1)
        dims.push_back({&piece, d, std::move(cases)});
  }
  // Classes of devices by their chunk kinds, in order of first appearance.
  std::map<std::vector<int64_t>, size_t> classOfKey;
  std::vector<std::vector<int64_t>> keys;
  std::vector<int64_t> representatives, key;
  for (int64_t device = 0; device < numDevices(); ++device) {
    key.clear();
    for (const ShardedDim &dim : dims) {
      const int64_t extent = dim.layout->extent(device, dim.dim);
      size_t c = 0;
      while (dim.cases[c].extent != extent)
        ++c;
      key.push_back(static_cast<int64_t>(c));
    }
    if (classOfKey.emplace(key, keys.size()).second) {
      keys.push_back(key);
      representatives.push_back(device);
    }
  }
  // Bodies in order of first appearance, each with the conditions of its classes.
  std::vector<std::string> bodies, conditions;
  std::map<std::string, size_t> bodyIndex;
  for (size_t c = 0; c < keys.size(); ++c) {
    std::string condition;
    for (size_t i = 0; i < dims.size(); ++i)
      condition += (condition.empty() ? "" : " && ") + dims[i].cases[keys[c][i]].condition;
    auto [it, inserted] = bodyIndex.emplace(codeFor(representatives[c]), bodies.size());
    if (inserted) {
      bodies.push_back(it->first);
      conditions.push_back("(" + condition + ")");
    } else {
      conditions[it->second] += " || (" + condition + ")";
    }
  }
  if (bodies.size() == 1) {
    out.lines(bodies[0]);
    return;
  }
  auto scope = out.block();
  for (size_t l = 0; l < layouts.size(); ++l)
    out.lines(pieceLocals(program.mesh, *layouts[l], "_" + std::to_string(l)));
  bool first = true;
  for (size_t b = 0; b < bodies.size(); ++b) {
    if (bodies[b].empty())
      continue;
    auto branch = out.block((first ? "if (" : "else if (") + conditions[b] + ")");
    out.lines(bodies[b]);
    first = false;
  }
}

std::string EmitterContext::freshName(const std::string &prefix) {
  return prefix + std::to_string(nextConstant++);
}

std::string EmitterContext::constant(const std::string &prefix, const std::string &head,
                                     const std::string &tail) {
  auto [it, inserted] = constantByText_.emplace(prefix + "\n" + head + "\n" + tail, 0);
  if (inserted) {
    it->second = constants.size();
    std::string name = freshName(prefix);
    constants.push_back({name, head + name + tail});
  }
  usedConstants.push_back(it->second);
  return constants[it->second].name;
}

std::vector<size_t> EmitterContext::takeUsedConstants() {
  std::vector<size_t> used = std::move(usedConstants);
  usedConstants.clear();
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  return used;
}

std::string EmitterContext::axisList(const std::vector<std::string> &axes) {
  std::vector<int64_t> indices;
  for (const std::string &axis : axes) {
    auto index = program.mesh.axisIndex(axis);
    if (!index)
      throw GraphError("", "collective axis \"" + axis + "\" is not an axis of the mesh");
    indices.push_back(static_cast<int64_t>(*index));
  }
  std::string name =
      constant("kAxes", "const int32_t ",
               "[] = {" + (indices.empty() ? std::string("0") : joinInts(indices)) + "};");
  return "rt::AxisList{" + name + ", " + str(static_cast<int64_t>(indices.size())) + "}";
}

std::string dimView(const Shape &shape, int64_t dim) {
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < static_cast<int64_t>(shape.size()); ++k)
    if (k != dim)
      (k < dim ? outer : inner) *= shape[k];
  return "rt::DimView{" + str(outer) + ", " + str(shape[dim]) + ", " + str(inner) + "}";
}

} // namespace shardgen::codegen
