#include "compiler/codegen/PieceIndexing.h"

#include <map>

#include "compiler/codegen/EmitterContext.h"

namespace shardgen::codegen {
namespace {

/// "position / 64 % 8": the device's coordinate on a (sub-)axis.
std::string digit(const Mesh &mesh, const AxisRef &axis) {
  int64_t step = positionStep(mesh, axis);
  return "(position" + (step == 1 ? std::string() : " / " + str(step)) + " % " +
         str(axis.size(mesh)) + ")";
}

bool isSharded(const ShardLayout &layout, int64_t dim) { return layout.numShards(dim) > 1; }

} // namespace

std::vector<DimCase> dimCases(const ShardLayout &layout, int64_t dim, const std::string &suffix) {
  int64_t size = layout.globalType.shape[dim], shards = layout.numShards(dim);
  if (shards == 1)
    return {{size, ""}};
  int64_t chunk = (size + shards - 1) / shards;
  int64_t full = chunk == 0 ? 0 : size / chunk, rest = size - full * chunk;
  std::string k = "k" + str(dim) + suffix;
  std::vector<DimCase> cases;
  if (full > 0)
    cases.push_back({chunk, full >= shards ? "" : k + " < " + str(full)});
  int64_t firstEmpty = full;
  if (rest > 0 && full < shards) {
    cases.push_back({rest, k + " == " + str(full)});
    firstEmpty = full + 1;
  }
  if (firstEmpty < shards)
    cases.push_back({0, k + " >= " + str(firstEmpty)});
  if (cases.size() == 1)
    cases[0].condition.clear(); // every shard alike
  return cases;
}

namespace {

std::string joinConditions(const std::vector<std::string> &parts, const std::string &glue) {
  std::string out;
  for (const std::string &part : parts)
    if (!part.empty())
      out += (out.empty() ? "" : glue) + part;
  return out;
}

/// "v == 3 || (v >= 5 && v <= 9)" for sorted distinct `values`; "" when they
/// are all of 0 .. size - 1.
std::string rangesCondition(const std::string &variable, const std::vector<int64_t> &values,
                            int64_t size) {
  if (static_cast<int64_t>(values.size()) == size)
    return "";
  std::vector<std::string> runs;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1)
      ++j;
    runs.push_back(i == j ? variable + " == " + str(values[i])
                          : "(" + variable + " >= " + str(values[i]) + " && " + variable +
                                " <= " + str(values[j]) + ")");
    i = j + 1;
  }
  std::string out = joinConditions(runs, " || ");
  return runs.size() > 1 ? "(" + out + ")" : out;
}

} // namespace

std::string devicesCondition(const Mesh &mesh, const std::vector<int64_t> &devices) {
  // The set's projection on each axis; a product of them iff the sizes agree.
  std::vector<std::vector<bool>> seen;
  for (const MeshAxis &axis : mesh.axes)
    seen.emplace_back(axis.size, false);
  for (int64_t device : devices) {
    int64_t rest = device;
    for (size_t a = mesh.axes.size(); a-- > 0;) {
      seen[a][rest % mesh.axes[a].size] = true;
      rest /= mesh.axes[a].size;
    }
  }
  std::vector<std::vector<int64_t>> projections(mesh.axes.size());
  double productSize = 1;
  for (size_t a = 0; a < mesh.axes.size(); ++a) {
    for (int64_t c = 0; c < mesh.axes[a].size; ++c)
      if (seen[a][c])
        projections[a].push_back(c);
    productSize *= static_cast<double>(projections[a].size());
  }
  if (productSize != static_cast<double>(devices.size()))
    return rangesCondition("position", devices, mesh.numDevices());
  std::vector<std::string> perAxis;
  for (size_t a = 0; a < mesh.axes.size(); ++a)
    perAxis.push_back(rangesCondition(digit(mesh, AxisRef::full(mesh.axes[a].name)), projections[a],
                                      mesh.axes[a].size));
  return joinConditions(perAxis, " && ");
}

std::string pieceLocals(const Mesh &mesh, const ShardLayout &layout, const std::string &suffix) {
  std::string out;
  for (int64_t d = 0; d < layout.rank(); ++d) {
    if (!isSharded(layout, d))
      continue;
    std::string index;
    for (const AxisRef &axis : layout.sharding.dims[d].axes)
      index = index.empty()
                  ? digit(mesh, axis)
                  : "(" + index + " * " + str(axis.size(mesh)) + " + " + digit(mesh, axis) + ")";
    int64_t size = layout.globalType.shape[d], shards = layout.numShards(d);
    int64_t chunk = (size + shards - 1) / shards;
    std::string k = "k" + str(d) + suffix, o = "o" + str(d) + suffix;
    // Shard indices are below the shard count, so k * chunk < size + shards * chunk.
    out += "const int64_t " + k + " = " + index + ";\nconst int64_t " + o + " = " + k + " * " +
           str(chunk) + " < " + str(size) + " ? " + k + " * " + str(chunk) + " : " + str(size) +
           ";\n(void)" + o + ";\n";
  }
  return out;
}

std::string pieceOffset(const ShardLayout &layout, int64_t dim, const std::string &suffix) {
  return isSharded(layout, dim) ? "o" + str(dim) + suffix : "0";
}

std::vector<PieceClass> pieceClasses(const ShardLayout &layout, const std::string &suffix) {
  // Evenly split dims have one case each: one class, no condition (what the
  // general product below gives, without its strings and maps; most tensors
  // of a large graph take this path, several times each).
  const Shape &shape = layout.globalType.shape;
  bool even = true;
  for (int64_t d = 0; d < layout.rank() && even; ++d)
    even = shape[d] % layout.numShards(d) == 0;
  if (even) {
    PieceClass only{Shape(shape.size()), ""};
    for (int64_t d = 0; d < layout.rank(); ++d)
      only.extents[d] = shape[d] / layout.numShards(d);
    return {only};
  }
  // The product of the dims' cases; combinations giving the same shape merge.
  std::vector<PieceClass> classes{{Shape{}, ""}};
  std::vector<std::vector<std::string>> terms{{}};
  for (int64_t d = 0; d < layout.rank(); ++d) {
    std::vector<PieceClass> next;
    std::vector<std::vector<std::string>> nextTerms;
    for (size_t c = 0; c < classes.size(); ++c)
      for (const DimCase &dimCase : dimCases(layout, d, suffix)) {
        PieceClass grown = classes[c];
        grown.extents.push_back(dimCase.extent);
        std::vector<std::string> grownTerms = terms[c];
        grownTerms.push_back(dimCase.condition);
        next.push_back(grown);
        nextTerms.push_back(grownTerms);
      }
    classes = std::move(next);
    terms = std::move(nextTerms);
  }
  std::map<Shape, size_t> index;
  std::vector<PieceClass> merged;
  for (size_t c = 0; c < classes.size(); ++c) {
    std::string condition = joinConditions(terms[c], " && ");
    auto [it, inserted] = index.emplace(classes[c].extents, merged.size());
    if (inserted) {
      merged.push_back({classes[c].extents, condition.empty() ? "" : "(" + condition + ")"});
    } else {
      PieceClass &existing = merged[it->second];
      existing.condition = existing.condition.empty() || condition.empty()
                               ? ""
                               : existing.condition + " || (" + condition + ")";
    }
  }
  return merged;
}

std::string firstHolderCondition(const Mesh &mesh, const ShardLayout &layout) {
  // position == the position with every digit no dim uses set to 0.
  std::vector<std::string> kept;
  int64_t usedDevices = 1;
  for (const auto &dim : layout.sharding.dims)
    for (const AxisRef &axis : dim.axes) {
      int64_t step = positionStep(mesh, axis);
      kept.push_back(digit(mesh, axis) + (step == 1 ? "" : " * " + str(step)));
      usedDevices *= axis.size(mesh);
    }
  if (usedDevices == mesh.numDevices())
    return "";
  return "position == " +
         (kept.empty() ? std::string("0") : "(" + joinConditions(kept, " + ") + ")");
}

std::string partialHolderCondition(const Mesh &mesh, const ShardLayout &layout) {
  std::vector<std::string> zeros;
  for (const AxisRef &axis : layout.partialAxes)
    zeros.push_back(digit(mesh, axis) + " == 0");
  return joinConditions(zeros, " && ");
}

std::string dispatchOnClass(const std::vector<PieceClass> &classes,
                            const std::vector<std::string> &bodies) {
  CodeWriter out;
  for (size_t c = 0; c < classes.size(); ++c) {
    if (bodies[c].empty())
      continue;
    const bool last = classes[c].condition.empty(); // the remaining devices
    {
      const std::string keyword = out.empty() ? "" : "else";
      auto branch = out.block(
          last ? keyword : keyword + (out.empty() ? "if (" : " if (") + classes[c].condition + ")");
      out.lines(bodies[c]);
    }
    if (last)
      break;
  }
  return out.take();
}

std::vector<PieceClass> localShapeClasses(const Mesh &mesh, const ShardLayout &layout) {
  // (A halo's pieces are no chunk kinds: by device, as a distribution's.)
  if (!layout.isDistributed() && !layout.hasHalo())
    return pieceClasses(layout);
  std::map<Shape, std::vector<int64_t>> devicesOf;
  for (int64_t position = 0; position < mesh.numDevices(); ++position)
    devicesOf[layout.extentsOf(position)].push_back(position);
  std::vector<PieceClass> classes;
  for (const auto &[shape, devices] : devicesOf)
    classes.push_back({shape, devicesCondition(mesh, devices)});
  return classes;
}

} // namespace shardgen::codegen
