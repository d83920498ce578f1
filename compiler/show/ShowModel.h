#pragma once
// What `shardgen show` shows, gathered once from the propagated graph and the
// partitioned program: per tensor its type, sharding, origin (and optionally
// the explanation `shardgen explain` prints) and the BlockMap of the
// partitioner's layout; the mesh; the communication manifest.

#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/SpmdProgram.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/show/BlockMap.h"

namespace shardgen::show {

struct TensorView {
  std::string name;
  std::string role;    // "input 0", "output 1", "value"
  std::string pointer; // where it is defined (input, op, output, body argument)
  ValueId value = -1;
  TensorType type;
  std::string sharding;    // canonical Shardy text
  std::string origin;      // as `_origin` writes it: user:/inputs/0/sharding, op:/ops/2, ...
  std::string explanation; // what `shardgen explain` prints, when asked for
  /// A manual computation body value: its blocks are of the body-local tensor
  /// (over the free axes; every manual coordinate holds its own such tensor).
  bool bodyLocal = false;
  /// A distributed value: `sharding` holds its distribution's text and
  /// `blocks` its chunks (one block per chunk).
  bool distributed = false;
  bool mapped = true; // false: `blocks` was skipped (Blocks::Skipped)
  BlockMap blocks;
};

struct ShowModel {
  std::string graphName;
  std::string strategy;
  Mesh mesh; // the program's mesh (Mesh::deviceId maps positions to ids)
  std::vector<TensorView> tensors;
};

/// Views of the graph inputs then outputs (`names` empty), or of every value
/// named in `names` in that order (a name repeated in manual bodies gives one
/// view per value). Throws GraphError at "" for a name no value has.
ShowModel buildShowModel(const Graph &graph, const PropagationResult &result,
                         const SpmdProgram &program, const std::vector<std::string> &names);

/// Whether a view maps the mesh's devices to blocks (a pass over every
/// device: the page does it for a bounded number of tensor-devices).
enum class Blocks { Mapped, Skipped };

/// The view of one value in its propagated sharding, with its explanation.
TensorView valueView(const Graph &graph, const PropagationResult &result,
                     const SpmdProgram &program, ValueId value, Blocks blocks = Blocks::Mapped);
/// The view of graph output `index` in its output sharding, with the
/// explanation of the returned value.
TensorView outputView(const Graph &graph, const PropagationResult &result,
                      const SpmdProgram &program, size_t index, Blocks blocks = Blocks::Mapped);

/// Device ids of mesh positions as ascending runs [first, last] of
/// consecutive ids.
std::vector<std::pair<int64_t, int64_t>> deviceIdRanges(const Mesh &mesh,
                                                        const std::vector<int64_t> &positions);

/// Device ids, ascending, of mesh positions: "d0-3", "d0,2,5", "d4".
std::string deviceList(const Mesh &mesh, const std::vector<int64_t> &positions);

} // namespace shardgen::show
