#include "compiler/partition/SpmdCoherence.h"

#include <map>

#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/Redistribution.h"

namespace shardgen {

SpmdCoherenceError::SpmdCoherenceError(std::string pointer, int64_t deviceA, int64_t deviceB,
                                       const std::string &message)
    : InternalError(pointer + ": " + message), pointer_(std::move(pointer)), deviceA_(deviceA),
      deviceB_(deviceB) {}

namespace {

std::string shapeText(const Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") + std::to_string(shape[i]);
  return text + "]";
}

/// Every device's group over a step's axes, found in one pass over the
/// devices (groupDevices for one device is itself a pass).
struct MeshGroups {
  std::vector<std::vector<int64_t>> members; // per group, by position
  std::vector<int64_t> groupOf;              // per device
};

/// Steps over the same axes share their groups: found once per axes list.
using GroupCache = std::map<std::string, MeshGroups>;

/// The check of one step: each device's group, and what each member sends
/// and expects compared with the other members of its group.
class StepChecker {
public:
  StepChecker(const SpmdProgram &program, const SpmdStep &step, GroupCache &groupCache)
      : program_(program), step_(step), mesh_(program.mesh), groupCache_(groupCache) {}

  void check() {
    // A RegionAllReduce reduces several values at once, each as an all_reduce.
    const bool several = step_.kind == StepKind::RegionAllReduce;
    if (several ? step_.inputs.empty() || step_.inputs.size() != step_.outputs.size()
                : step_.inputs.size() != 1 || step_.outputs.size() != 1)
      fail(0, 0,
           "has " + std::to_string(step_.inputs.size()) + " inputs and " +
               std::to_string(step_.outputs.size()) + " outputs, not " +
               (several ? "as many of each" : "one each"));
    for (size_t i = 0; i < step_.inputs.size(); ++i)
      checkValue(program_.layout(step_.inputs[i]), program_.layout(step_.outputs[i]));
  }

private:
  void checkValue(const ShardLayout &in, const ShardLayout &out) {
    in_ = &in;
    out_ = &out;
    if (in_->globalType.elementType != out_->globalType.elementType)
      fail(0, 0,
           "sends " + std::string(elementTypeName(in_->globalType.elementType)) + " and receives " +
               std::string(elementTypeName(out_->globalType.elementType)));
    if (step_.kind == StepKind::Redistribute)
      return checkRedistribution();
    checkAxes();
    std::string axesKey;
    for (const AxisRef &axis : step_.axes)
      axesKey += printAxisRef(axis) + ",";
    auto cached = groupCache_.find(axesKey);
    if (cached == groupCache_.end())
      cached = groupCache_.emplace(axesKey, findGroups()).first;
    groups_ = &cached->second;
    if (step_.kind == StepKind::CollectivePermute)
      return checkPermute();
    for (const std::vector<int64_t> &group : groups_->members)
      checkGroup(group);
  }

  [[noreturn]] void fail(int64_t a, int64_t b, const std::string &what) const {
    std::string devices =
        a == b ? "device " + std::to_string(a)
               : "devices " + std::to_string(a) + " and " + std::to_string(b) + " disagree";
    throw SpmdCoherenceError(step_.pointer, a, b,
                             std::string(stepKindName(step_.kind)) + " step: " + devices + ": " +
                                 what);
  }

  Shape sends(int64_t device) const { return in_->extentsOf(device); }
  Shape receives(int64_t device) const { return out_->extentsOf(device); }

  /// Group axes name distinct axes of the mesh (sub-axes within their axis).
  void checkAxes() const {
    for (size_t i = 0; i < step_.axes.size(); ++i) {
      const AxisRef &axis = step_.axes[i];
      auto index = mesh_.axisIndex(axis.name);
      if (!index)
        fail(0, 0, "groups over \"" + axis.name + "\", not an axis of the mesh");
      int64_t whole = mesh_.axes[*index].size;
      if (axis.isSubAxis() &&
          (axis.pre() <= 0 || *axis.subSize <= 0 || whole % (axis.pre() * *axis.subSize) != 0))
        fail(0, 0, "groups over " + printAxisRef(axis) + ", not a sub-axis of the mesh");
      for (size_t j = 0; j < i; ++j)
        if (axis.overlaps(step_.axes[j], mesh_))
          fail(0, 0, "groups over " + printAxisRef(axis) + " twice");
    }
  }

  /// Devices agreeing on every mesh coordinate digit outside the step's
  /// axes form a group; a device's place in it is its index over the axes.
  MeshGroups findGroups() const {
    MeshGroups groups;
    std::map<std::vector<int64_t>, int64_t> groupOfKey;
    const int64_t size = axesSize(mesh_, step_.axes);
    for (int64_t device = 0; device < mesh_.numDevices(); ++device) {
      std::vector<int64_t> key = mesh_.coordinates(device);
      for (const AxisRef &axis : step_.axes) {
        int64_t &digit = key[*mesh_.axisIndex(axis.name)];
        const int64_t post = postSize(mesh_, axis);
        digit -= ((digit / post) % axis.size(mesh_)) * post;
      }
      auto [it, fresh] = groupOfKey.try_emplace(key, groups.members.size());
      if (fresh)
        groups.members.emplace_back(size, -1);
      std::vector<int64_t> &group = groups.members[it->second];
      int64_t position = indexOverAxes(mesh_, step_.axes, device);
      if (group[position] != -1)
        fail(group[position], device,
             "both take position " + std::to_string(position) + " of one group");
      group[position] = device;
      groups.groupOf.push_back(it->second);
    }
    for (const std::vector<int64_t> &group : groups.members)
      for (size_t position = 0; position < group.size(); ++position)
        if (group[position] == -1)
          fail(group.front(), group.front(),
               "its group has nobody at position " + std::to_string(position));
    return groups;
  }

  /// Shape `shape` with `dim` replaced by `extent`.
  static Shape with(Shape shape, int64_t dim, int64_t extent) {
    shape[dim] = extent;
    return shape;
  }

  static bool equalOutside(const Shape &a, const Shape &b, int64_t dim) {
    return with(a, dim, 0) == with(b, dim, 0);
  }

  void checkDimension(int64_t dim, const char *what) const {
    if (dim < 0 || dim >= in_->rank())
      fail(0, 0,
           std::string(what) + " " + std::to_string(dim) + " of a rank-" +
               std::to_string(in_->rank()) + " piece");
  }

  /// Every member's piece has the leader's shape.
  void sameSends(const std::vector<int64_t> &group) const {
    for (int64_t member : group)
      if (sends(member) != sends(group.front()))
        fail(group.front(), member,
             "device " + std::to_string(group.front()) + " sends " +
                 shapeText(sends(group.front())) + ", device " + std::to_string(member) +
                 " sends " + shapeText(sends(member)));
  }

  /// Each member ends with `expected` (what the group's pieces make).
  void receivesOnly(const std::vector<int64_t> &group, const Shape &expected, int64_t from) const {
    for (int64_t member : group)
      if (receives(member) != expected)
        fail(member, from,
             "device " + std::to_string(member) + " expects " + shapeText(receives(member)) +
                 ", the pieces of its group (first device " + std::to_string(from) + ") make " +
                 shapeText(expected));
  }

  /// Splitting `dim` of `piece` into one chunk per member.
  Shape chunk(const Shape &piece, int64_t dim, int64_t device, int64_t members) const {
    if (piece[dim] % members != 0)
      fail(device, device,
           "splits dimension " + std::to_string(dim) + " of " + shapeText(piece) + " into " +
               std::to_string(members) + " chunks");
    return with(piece, dim, piece[dim] / members);
  }

  /// `parts` concatenated along `dim`; they must agree outside it.
  Shape concatenation(const std::vector<int64_t> &group, const std::vector<Shape> &parts,
                      int64_t dim) const {
    Shape result = parts.front();
    result[dim] = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      if (!equalOutside(parts[k], parts.front(), dim))
        fail(group.front(), group[k],
             "device " + std::to_string(group.front()) + " sends " + shapeText(parts.front()) +
                 ", device " + std::to_string(group[k]) + " sends " + shapeText(parts[k]) +
                 ", not equal outside dimension " + std::to_string(dim));
      result[dim] += parts[k][dim];
    }
    return result;
  }

  void checkGroup(const std::vector<int64_t> &group) const {
    const int64_t leader = group.front();
    const int64_t n = static_cast<int64_t>(group.size());
    switch (step_.kind) {
    case StepKind::AllReduce:
    case StepKind::RegionAllReduce:
      sameSends(group);
      return receivesOnly(group, sends(leader), leader);
    case StepKind::ReduceScatter:
      checkDimension(step_.dimension, "scatters dimension");
      sameSends(group);
      return receivesOnly(group, chunk(sends(leader), step_.dimension, leader, n), leader);
    case StepKind::AllGather: {
      checkDimension(step_.dimension, "gathers dimension");
      std::vector<Shape> parts;
      for (int64_t member : group)
        parts.push_back(sends(member));
      return receivesOnly(group, concatenation(group, parts, step_.dimension), leader);
    }
    case StepKind::AllToAll: {
      checkDimension(step_.dimension, "splits dimension");
      checkDimension(step_.concatDimension, "concatenates dimension");
      std::vector<Shape> parts;
      for (int64_t member : group)
        parts.push_back(chunk(sends(member), step_.dimension, member, n));
      return receivesOnly(group, concatenation(group, parts, step_.concatDimension), leader);
    }
    case StepKind::Broadcast:
      return receivesOnly(group, sends(leader), leader);
    default:
      fail(leader, leader, "is not a communication step");
    }
  }

  /// Pairs move whole pieces within a group, one sender and one receiver
  /// per device at most; a device nobody sends to keeps its piece's shape
  /// (zeros).
  void checkPermute() const {
    const int64_t devices = mesh_.numDevices();
    std::vector<int64_t> senderOf(devices, -1), receiverOf(devices, -1);
    for (auto [source, target] : step_.pairs) {
      if (source < 0 || source >= devices || target < 0 || target >= devices)
        fail(0, 0,
             "pair (" + std::to_string(source) + ", " + std::to_string(target) +
                 ") names a device outside the mesh of " + std::to_string(devices));
      if (senderOf[target] != -1)
        fail(senderOf[target], source, "both send to device " + std::to_string(target));
      if (receiverOf[source] != -1)
        fail(source, source, "sends twice");
      if (!step_.axes.empty() && groups_->groupOf[source] != groups_->groupOf[target])
        fail(source, target, "a pair across groups");
      senderOf[target] = source;
      receiverOf[source] = target;
    }
    for (int64_t device = 0; device < devices; ++device) {
      int64_t source = senderOf[device] == -1 ? device : senderOf[device];
      if (receives(device) != sends(source))
        fail(device, source,
             "device " + std::to_string(device) + " expects " + shapeText(receives(device)) +
                 ", device " + std::to_string(source) + " sends " + shapeText(sends(source)));
    }
  }

  /// Every device makes one whole-mesh exchange; its blocks must fill each
  /// destination's real elements exactly once, from inside the sources' buffers.
  void checkRedistribution() const {
    std::vector<int64_t> filled(mesh_.numDevices(), 0);
    for (const RedistributionBlock &block : planRedistribution(mesh_, *in_, *out_)) {
      Shape source = redistributionBufferShape(*in_, block.from);
      Shape target = redistributionBufferShape(*out_, block.to);
      for (size_t d = 0; d < block.extent.size(); ++d)
        if (block.fromStart[d] + block.extent[d] > source[d] ||
            block.toStart[d] + block.extent[d] > target[d])
          fail(block.from, block.to,
               "a block outside the buffer " + shapeText(source) + " or " + shapeText(target));
      filled[block.to] += block.elements();
    }
    for (int64_t device = 0; device < mesh_.numDevices(); ++device) {
      int64_t real = 0;
      if (out_->isDistributed()) {
        for (int64_t chunk : out_->chunks->chunksOfPosition(device))
          real += out_->chunks->chunkBox(chunk).volume();
      } else {
        real = out_->localElements(device);
      }
      if (filled[device] != real)
        fail(device, device,
             "receives " + std::to_string(filled[device]) + " elements for " +
                 std::to_string(real) + " real ones");
    }
  }

  const SpmdProgram &program_;
  const SpmdStep &step_;
  const Mesh &mesh_;
  GroupCache &groupCache_;
  const ShardLayout *in_ = nullptr, *out_ = nullptr;
  const MeshGroups *groups_ = nullptr;
};

} // namespace

namespace {

/// Every device must take the same path through a loop or branch (its
/// condition or index a scalar every device holds whole), so the
/// collectives of its blocks stay matched; and a value copied from one
/// buffer into another (inputs into carried values, block results into
/// them or into the outputs) must have the same pieces.
void checkStructured(const SpmdProgram &program, const SpmdStep &step) {
  auto fail = [&](const std::string &what) {
    throw SpmdCoherenceError(step.pointer, 0, 0,
                             std::string(stepKindName(step.kind)) + " step: " + what);
  };
  auto wholeScalar = [&](SpmdValueId v, ElementType type) {
    const ShardLayout &layout = program.layout(v);
    return layout.rank() == 0 && layout.partialAxes.empty() && !layout.isDistributed() &&
           layout.globalType.elementType == type;
  };
  auto samePieces = [&](SpmdValueId a, SpmdValueId b, const std::string &what) {
    if (!samePieceShapes(program.layout(a), program.layout(b)) ||
        program.layout(a).globalType != program.layout(b).globalType)
      fail(what + " " + program.values[a].name + " and " + program.values[b].name +
           " are laid out differently");
  };
  if (step.kind == StepKind::Loop) {
    if (step.blocks.size() != 2 || step.blocks[0].results.size() != 1)
      fail("needs a condition block with one result and a body block");
    if (!wholeScalar(step.blocks[0].results[0], ElementType::I1))
      fail("its condition is not an i1 scalar every device holds whole");
    const size_t n = step.carried.size();
    if (step.inputs.size() < n || step.outputs.size() != n || step.blocks[1].results.size() != n)
      fail("needs one input, body result and output per carried value");
    for (size_t i = 0; i < n; ++i) {
      samePieces(step.inputs[i], step.carried[i], "carried value");
      samePieces(step.blocks[1].results[i], step.carried[i], "carried value");
      samePieces(step.carried[i], step.outputs[i], "carried value");
    }
    return;
  }
  // case's i32 index, or if's i1 predicate (its blocks: false, true).
  if (step.inputs.empty() || !(wholeScalar(step.inputs[0], ElementType::I32) ||
                               wholeScalar(step.inputs[0], ElementType::I1)))
    fail("its index is not an i32 (or i1) scalar every device holds whole");
  if (step.blocks.empty())
    fail("has no case");
  for (const SpmdBlock &block : step.blocks) {
    if (block.results.size() != step.outputs.size())
      fail("needs one result per output in every case");
    for (size_t i = 0; i < block.results.size(); ++i)
      samePieces(block.results[i], step.outputs[i], "case result");
  }
}

} // namespace

void verifySpmdCoherence(const SpmdProgram &program) {
  GroupCache groupCache;
  forEachStep(program.steps, [&](const SpmdStep &step) {
    if (isStructured(step))
      checkStructured(program, step);
    else if (isCommunication(step.kind))
      StepChecker(program, step, groupCache).check();
  });
}

} // namespace shardgen
