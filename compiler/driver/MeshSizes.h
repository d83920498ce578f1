#pragma once
// Trying another mesh without editing the graph: new sizes for mesh axes by
// name, applied between reading and verifying (`--mesh data=4,model=2`, the
// Python module's `mesh={"data": 4}`).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen::driver {

/// The verifier's device limit: no axis may be larger.
inline constexpr int64_t kMaxAxisSize = int64_t(1) << 20;

/// Axis name and its new size, in the order given.
using MeshSizes = std::vector<std::pair<std::string, int64_t>>;

/// A size that cannot be, an axis no mesh has, or a mesh whose device_ids no
/// longer match its device count.
class MeshSizeError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// "data=4,model=2". Throws MeshSizeError: an item that is not AXIS=SIZE,
/// a size that is not an integer from 1 to kMaxAxisSize, an axis twice.
MeshSizes parseMeshSizes(const std::string &text);

/// "data=4,model=2": the sizes as parseMeshSizes reads them.
std::string meshSizesText(const MeshSizes &sizes);

/// Gives every mesh axis of `graph` named in `sizes` its new size (in each
/// mesh that has it). Throws MeshSizeError for a size out of [1,
/// kMaxAxisSize], an axis no mesh has, or a mesh listing device_ids that no
/// longer match its device count.
void applyMeshSizes(Graph &graph, const MeshSizes &sizes);

} // namespace shardgen::driver
