#pragma once
// The partitioned program: one SPMD program that every device of the mesh
// runs on its own pieces of the tensors. It is the partitioner's output and
// the code generator's input (and the SPMD simulator's, for tests).
//
// Values are per-device buffers with a ShardLayout; steps run in order on
// every device. A Compute step runs a graph op on local pieces (its local
// result shape is the result layout's extents on that device); the other
// steps move data between devices, or (AllSlice) keep a local part.
//
// Contract for the code generator (and the SPMD simulator):
// - "Position" means a device's row-major index over the mesh axes (map it
//   through Mesh::deviceId for a runtime device id). Layout tables and
//   CollectivePermute pairs are indexed by position.
// - Every piece has exactly its layout's extents on that device (uneven
//   shards are exact, empty pieces are possible). Where a collective needs
//   equal sizes, the implementation pads and masks internally; no padding
//   is ever visible in a value.
// - A step's semantics is operational and below; where a step takes a
//   sub-box (AllSlice), its offset is the output layout's offset minus the
//   input layout's offset on that device. Steps the partitioner plans for
//   a reshard also agree with box semantics (each output piece is the
//   global tensor's box at the output layout), but a body collective
//   (isBodyCollective: the spec's all_gather, reduce_scatter, all_to_all,
//   ... inside a manual computation) does not: its layouts are of the
//   body-local tensor, in which every member of a group holds the same box;
//   only the operational semantics below describe it.
// - Compute steps whose local result depends on the device are the code
//   generator's (and simulator's) job, read from the result layout: a
//   `constant` yields the slice of its value at the layout's offsets; an
//   `iota` adds the layout's offset along its iota dimension; `axis_index`
//   yields the device's coordinate on its axis; ops whose attributes name
//   extents (slice limits, broadcast/reshape/convert result types) use the
//   local extents of the dims they leave untouched (the partitioner only
//   shards dims such ops pass through unchanged); a windowed op
//   (reduce_window, convolution) whose windowed dim is cut takes the
//   padding of its place (WindowHalo.h's localWindowPadding).
// - top_k over a sharded last dim (TopKPartitioning.cpp) is two Compute
//   steps of the op: on a piece whose last dim is sharded, its indices are
//   made global (plus the piece's offset on that dim); with two inputs
//   (candidate values and their global indices) it takes the top k of the
//   values and returns, for each, the candidate's index.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/partition/ShardLayout.h"

namespace shardgen {

using SpmdValueId = int64_t;

struct SpmdValue {
  std::string name; // the graph value's name, or "<name>.<n>" for a resharded copy
  ShardLayout layout;
  ValueId source = -1; // the graph value it holds, if any
};

enum class StepKind {
  /// Runs `op` on local pieces. Inside a manual computation body the op
  /// may itself be a collective of the spec (over manual axes): then the
  /// step is that collective, not a Compute.
  Compute,
  /// Local, no communication: each device keeps the part of its input that
  /// the output layout assigns to it (a sub-box of what it holds).
  AllSlice,
  /// Concatenates the group's pieces along `dimension`, in group position
  /// order, each piece with its real extent (pieces may differ in size; the
  /// other dims are equal within a group).
  AllGather,
  /// Splits `dimension` into group-size chunks, sends chunk k to position k,
  /// concatenates what arrives along `concatDimension` in source order.
  /// The split extent is always divisible by the group size.
  AllToAll,
  /// Moves whole buffers between devices: device `pairs[i].first` sends to
  /// `pairs[i].second` (mesh positions; a pair (p, p) keeps the buffer);
  /// a device receiving nothing gets zeros. `axes` names the mesh axes along
  /// which data moves (the group axes for a body collective_permute).
  CollectivePermute,
  /// Reduces over the group with `reducer`; the output holds the full result.
  AllReduce,
  /// Reduces N values jointly over the group with the scalar body of `op`
  /// (a reduce whose body is no simple reducer, e.g. argmax): `inputs[i]`
  /// and `outputs[i]` are the partial and the full i-th value; the members
  /// of a group hold equal pieces. Each element group is folded in group
  /// position order, position 0's values first: acc = body(acc..., x...).
  /// (The code generator all-gathers the partials, then folds locally.)
  RegionAllReduce,
  /// Reduces over the group, then position k keeps chunk k of `dimension`
  /// (the extent is always divisible by the group size).
  ReduceScatter,
  /// Every device takes the value of the group member at position 0 (an
  /// out_sharding that leaves a manual axis replicated).
  Broadcast,
  /// No data moves: the output is the input's buffer under another layout
  /// (entering or leaving a manual computation body).
  Alias,
  /// To, from or between distributed values (Redistribution.h): every
  /// device receives exactly the elements of its output piece it does not
  /// hold, from the device holding them; padding of a distributed output is
  /// zero. The input holds no partial axes.
  Redistribute,
  /// A loop (stablehlo.while): `carried` are its carried values, buffers
  /// that live across iterations. They start as `inputs[0..N)`; then, each
  /// iteration, `blocks[0]` (the condition) runs and the loop ends when its
  /// result (`blocks[0].results[0]`, an i1 scalar every device holds whole,
  /// so all take the same path) is false; else `blocks[1]` (the body) runs
  /// and its results become the carried values. `outputs` receive the
  /// carried values when the loop ends. `inputs` beyond the first N are
  /// values of the enclosing steps the blocks read (so readers of step lists
  /// see them read here). The per-device code of a loop is a loop.
  Loop,
  /// A branch (stablehlo.case, if): `inputs[0]` is the index (an i32 scalar
  /// every device holds whole; an if's i1 predicate, its blocks false then
  /// true); case k runs `blocks[k]` (an index out of range runs the last
  /// block) and its results become `outputs`. `inputs`
  /// beyond the first are values of the enclosing steps the blocks read.
  Branch,
};

std::string_view stepKindName(StepKind kind);

struct SpmdStep;

/// A list of steps nested in a Loop or Branch step, and the values it yields.
struct SpmdBlock {
  std::vector<SpmdStep> steps;
  std::vector<SpmdValueId> results;
};

struct SpmdStep {
  StepKind kind = StepKind::Compute;
  const Op *op = nullptr; // the graph op computed, or the one this step serves
  std::string pointer;    // JSON pointer of that op (or of the input/output)
  std::vector<SpmdValueId> inputs, outputs;
  /// Collectives: the group axes; a device's position in its group is
  /// row-major over them in this order.
  std::vector<AxisRef> axes;
  int64_t dimension = -1;       // AllGather, ReduceScatter; AllToAll: split dim
  int64_t concatDimension = -1; // AllToAll
  Reducer reducer = Reducer::Add;
  std::vector<std::pair<int64_t, int64_t>> pairs; // CollectivePermute (device positions)
  /// The step is `op` itself, a collective of a manual computation body
  /// (not a reshard serving `op`): see isBodyCollective.
  bool bodyCollective = false;
  /// Loop: the condition and the body; Branch: one block per case.
  std::vector<SpmdBlock> blocks;
  /// Loop: the carried values (see StepKind::Loop).
  std::vector<SpmdValueId> carried;
};

struct SpmdProgram;
/// What the manifest and the printed program call a step: its kind's name,
/// or "halo_exchange" for a Redistribute to pieces with halos (the rows a
/// windowed op's windows read of its neighbours' shards, WindowHalo.h).
std::string_view stepTitle(const SpmdProgram &program, const SpmdStep &step);

/// Whether the step holds steps of its own (Loop, Branch).
inline bool isStructured(const SpmdStep &step) {
  return step.kind == StepKind::Loop || step.kind == StepKind::Branch;
}

/// Calls visit(v) for every value a structured step's blocks use or define,
/// its carried values and its blocks' results: the values that live while
/// the step runs (all of them, across iterations, for the simple planners).
template <typename Visit> void forEachNestedValue(const SpmdStep &step, Visit &&visit) {
  for (SpmdValueId v : step.carried)
    visit(v);
  for (const SpmdBlock &block : step.blocks) {
    for (const SpmdStep &inner : block.steps) {
      for (SpmdValueId v : inner.inputs)
        visit(v);
      for (SpmdValueId v : inner.outputs)
        visit(v);
      forEachNestedValue(inner, visit);
    }
    for (SpmdValueId v : block.results)
      visit(v);
  }
}

/// Calls visit(step) for every step of `steps`, a structured step before
/// the steps of its blocks (program order, as each device runs them once).
template <typename Visit> void forEachStep(std::span<const SpmdStep> steps, Visit &&visit) {
  for (const SpmdStep &step : steps) {
    visit(step);
    for (const SpmdBlock &block : step.blocks)
      forEachStep(block.steps, visit);
  }
}

/// A collective the graph wrote in a manual computation body (operational
/// semantics only, see above), as opposed to one planned for a reshard.
inline bool isBodyCollective(const SpmdStep &step) { return step.bodyCollective; }

struct SpmdProgram {
  const Graph *graph = nullptr;
  Mesh mesh;
  std::vector<SpmdValue> values;
  std::vector<SpmdValueId> inputs;  // layouts: the inputs' shardings
  std::vector<SpmdValueId> outputs; // layouts: the outputs' shardings
  /// Per output, the value the global call style gathers: the output itself,
  /// or for an unreduced (partial) output its sum over the partial axes (the
  /// global value of an output is always the full one; the per-device call
  /// style keeps the partial pieces). Empty: the outputs themselves.
  std::vector<SpmdValueId> gatheredOutputs;
  std::vector<SpmdStep> steps;
  /// Per graph ValueId: the program value holding it in its own sharding
  /// (body values: body-local, free axes only); -1 for none.
  std::vector<SpmdValueId> held;

  const ShardLayout &layout(SpmdValueId id) const { return values[id].layout; }
  SpmdValueId gatheredOutput(size_t output) const {
    return output < gatheredOutputs.size() ? gatheredOutputs[output] : outputs[output];
  }
  /// The values alive at the end of the program: outputs and gathered outputs.
  std::vector<SpmdValueId> liveOutValues() const {
    std::vector<SpmdValueId> live = outputs;
    live.insert(live.end(), gatheredOutputs.begin(), gatheredOutputs.end());
    return live;
  }
};

} // namespace shardgen
