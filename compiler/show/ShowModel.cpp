#include "compiler/show/ShowModel.h"

#include <algorithm>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"

namespace shardgen::show {

namespace {

std::string shardingText(const TensorSharding &sharding) {
  return sharding.meshName.empty() ? "replicated (no mesh)" : printSharding(sharding);
}

/// Origin steps a value's explanation shows (every value of a page has one).
constexpr size_t kMaxOriginStepsShown = 16;

TensorView baseView(const Graph &graph, const PropagationResult &result, ValueId value,
                    const ShardLayout &layout, Blocks blocks) {
  const Value &v = graph.value(value);
  TensorView view;
  view.name = v.name;
  view.value = value;
  view.pointer = v.pointer();
  view.type = graph.type(value);
  view.bodyLocal = v.region != &graph.main;
  view.explanation = explainValue(graph, result, value, kMaxOriginStepsShown);
  view.mapped = blocks == Blocks::Mapped;
  if (view.mapped)
    view.blocks = mapBlocks(layout);
  return view;
}

/// Draws a distributed tensor by its chunks instead of the program's layout.
void showDistribution(const Graph &graph, const std::optional<Distribution> &distribution,
                      TensorView &view) {
  if (!distribution)
    return;
  view.distributed = true;
  view.sharding = printDistribution(*distribution);
  if (view.mapped)
    view.blocks = mapChunks(DistributionLayout(*distribution, view.type.shape,
                                               *graph.findMesh(distribution->meshName)));
}

} // namespace

TensorView valueView(const Graph &graph, const PropagationResult &result,
                     const SpmdProgram &program, ValueId value, Blocks blocks) {
  SHARDGEN_CHECK(static_cast<size_t>(value) < program.held.size() && program.held[value] >= 0,
                 "value \"" + graph.value(value).name + "\" has no layout in the program");
  TensorView view = baseView(graph, result, value, program.layout(program.held[value]), blocks);
  view.role = "value";
  for (size_t i = 0; i < graph.main.args.size(); ++i)
    if (graph.main.args[i].value == value)
      view.role = "input " + std::to_string(i);
  view.sharding = shardingText(result.shardingOf(value));
  view.origin = result.origins[value].str();
  showDistribution(graph, result.distributionOf(value), view);
  return view;
}

TensorView outputView(const Graph &graph, const PropagationResult &result,
                      const SpmdProgram &program, size_t index, Blocks blocks) {
  const RegionResult &output = graph.main.results[index];
  TensorView view =
      baseView(graph, result, output.value, program.layout(program.outputs[index]), blocks);
  view.role = "output " + std::to_string(index);
  view.pointer = output.pointer;
  view.sharding = shardingText(result.outputShardings[index]);
  view.origin = result.outputOrigins[index].str();
  if (index < result.outputDistributions.size())
    showDistribution(graph, result.outputDistributions[index], view);
  return view;
}

ShowModel buildShowModel(const Graph &graph, const PropagationResult &result,
                         const SpmdProgram &program, const std::vector<std::string> &names) {
  ShowModel model;
  model.graphName = graph.name;
  model.strategy = std::string(strategyName(result.strategy));
  model.mesh = program.mesh;
  if (names.empty()) {
    for (const auto &arg : graph.main.args)
      model.tensors.push_back(valueView(graph, result, program, arg.value));
    for (size_t i = 0; i < graph.main.results.size(); ++i)
      model.tensors.push_back(outputView(graph, result, program, i));
    return model;
  }
  for (const std::string &name : names) {
    bool found = false;
    for (size_t v = 0; v < graph.values.size(); ++v)
      if (graph.values[v].name == name) {
        model.tensors.push_back(valueView(graph, result, program, static_cast<ValueId>(v)));
        found = true;
      }
    if (!found)
      fail("", "no value named \"" + name + "\" in the graph");
  }
  return model;
}

std::vector<std::pair<int64_t, int64_t>> deviceIdRanges(const Mesh &mesh,
                                                        const std::vector<int64_t> &positions) {
  std::vector<int64_t> ids;
  ids.reserve(positions.size());
  for (int64_t position : positions)
    ids.push_back(mesh.deviceId(position));
  std::sort(ids.begin(), ids.end());
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (size_t i = 0; i < ids.size();) {
    size_t end = i;
    while (end + 1 < ids.size() && ids[end + 1] == ids[end] + 1)
      ++end;
    ranges.emplace_back(ids[i], ids[end]);
    i = end + 1;
  }
  return ranges;
}

std::string deviceList(const Mesh &mesh, const std::vector<int64_t> &positions) {
  std::string text = "d";
  for (const auto &[first, last] : deviceIdRanges(mesh, positions)) {
    text += (text.size() > 1 ? "," : "") + std::to_string(first);
    if (last > first)
      text += (last == first + 1 ? "," : "-") + std::to_string(last);
  }
  return text;
}

} // namespace shardgen::show
