// Reshapes that merge or split sharded dims: the partitioner keeps the
// factors' sub-axes (Shardy's axis splitting), so the reshape is local
// instead of replicating the factor a dim's sharding covers only part of.

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "compiler/partition/CommunicationManifest.h"
#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// A graph on `mesh` of one input `a` (type, sharding), tanh, a reshape to
/// `resultType` (with `resultSharding` when given), tanh, returned with
/// `outputSharding` (when given).
std::string reshapeGraph(const std::string &mesh, const std::string &inputType,
                         const std::string &inputSharding, const std::string &resultType,
                         const std::string &resultSharding, const std::string &outputSharding) {
  auto shardingKey = [](const std::string &sharding) {
    return sharding.empty() ? std::string() : R"(, "sharding": ")" + sharding + "\"";
  };
  return R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" + mesh +
         R"(], "inputs": [{"name": "a", "type": ")" + inputType + "\"" +
         shardingKey(inputSharding) + R"(}], "ops": [
           {"op": "tanh", "operands": ["a"], "result": "t"},
           {"op": "reshape", "operands": ["t"], "result": "r", "type": ")" +
         resultType + "\"" + shardingKey(resultSharding) + R"(},
           {"op": "tanh", "operands": ["r"], "result": "y"}],
         "outputs": [{"value": "y")" +
         shardingKey(outputSharding) + "}]}";
}

const std::string meshX4 = R"({"name": "m", "axes": [{"name": "x", "size": 4}]})";
const std::string meshX4Y2 =
    R"({"name": "m", "axes": [{"name": "x", "size": 4}, {"name": "y", "size": 2}]})";

/// The program's collectives (manifest rows) after propagation.
CommunicationManifest propagatedManifest(Graph &graph) {
  propagateInPlace(graph);
  SpmdProgram program = partitionVerified(graph);
  CommunicationManifest manifest = computeManifest(program);
  INFO(formatManifest(manifest, program));
  return manifest;
}

/// The layout the reshape's Compute step reads its operand in.
DimAxes reshapeOperandAxes(const SpmdProgram &program) {
  for (const SpmdStep &step : program.steps)
    if (step.kind == StepKind::Compute && step.op && step.op->kind == OpKind::Reshape)
      return dimAxesOf(program.layout(step.inputs[0]));
  FAIL("no reshape step");
  return {};
}

} // namespace

TEST_CASE("a reshape merging a dim smaller than the axis splits the axis: nothing moves") {
  // [2, 16] -> [32] with the result on x (4): the major factor (2) takes
  // "x":(1)2 and the minor one (16) "x":(2)2; each device's 8 elements are
  // one row's half, where they already are.
  Graph graph =
      loadGraph(reshapeGraph(meshX4, "tensor<2x16xf32>", "", "tensor<32xf32>", "", "<@m, [{x}]>"));
  CHECK(propagatedManifest(graph).collectives.empty());
  SpmdProgram program = partitionVerified(graph);
  CHECK(reshapeOperandAxes(program) ==
        DimAxes{{AxisRef::sub("x", 1, 2)}, {AxisRef::sub("x", 2, 2)}});
  for (uint64_t seed : {1, 2})
    CHECK(checkPartitionedEqualsInterpreter(graph, seed) == "");
}

TEST_CASE("a reshape splitting a sharded dim keeps its pieces on sub-axes: nothing moves") {
  Graph graph =
      loadGraph(reshapeGraph(meshX4, "tensor<32xf32>", "<@m, [{x}]>", "tensor<2x16xf32>", "", ""));
  CHECK(propagatedManifest(graph).collectives.empty());
  // The result is on "x":(1)2, "x":(2)2: spelled merged, that is the operand's x.
  SpmdProgram program = partitionVerified(graph);
  CHECK(reshapeOperandAxes(program) == DimAxes{{AxisRef::full("x")}});
  CHECK(checkPartitionedEqualsInterpreter(graph, 3) == "");
}

TEST_CASE("attention heads split from and merged into a model-sharded dim move nothing") {
  // [b, s, h*d] on x -> [b, s, h, d] with 2 heads over 4 devices and back.
  std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" +
                     meshX4 + R"(], "inputs": [
      {"name": "a", "type": "tensor<2x3x16xf32>", "sharding": "<@m, [{}, {}, {x}]>"}],
      "ops": [{"op": "reshape", "operands": ["a"], "result": "h", "type": "tensor<2x3x2x8xf32>"},
              {"op": "tanh", "operands": ["h"], "result": "t"},
              {"op": "reshape", "operands": ["t"], "result": "y", "type": "tensor<2x3x16xf32>"}],
      "outputs": [{"value": "y", "sharding": "<@m, [{}, {}, {x}]>"}]})";
  Graph graph = loadGraph(json);
  CHECK(propagatedManifest(graph).collectives.empty());
  CHECK(checkPartitionedEqualsInterpreter(graph, 4) == "");
}

TEST_CASE("uneven dims next to a merged or split dim stay local") {
  // 7 on y (2) is uneven (4 + 3); the merged dim is exact on sub-axes of x.
  std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" +
                     meshX4Y2 + R"(], "inputs": [{"name": "a", "type": "tensor<2x16x7xf32>",
        "sharding": "<@m, [{\"x\":(1)2}, {\"x\":(2)2}, {y}]>"}],
      "ops": [{"op": "reshape", "operands": ["a"], "result": "r", "type": "tensor<32x7xf32>",
               "sharding": "<@m, [{x}, {y}]>"},
              {"op": "reshape", "operands": ["r"], "result": "s", "type": "tensor<2x16x7xf32>",
               "sharding": "<@m, [{\"x\":(1)2}, {\"x\":(2)2}, {y}]>"}],
      "outputs": [{"value": "r", "sharding": "<@m, [{x}, {y}]>"}, {"value": "s",
        "sharding": "<@m, [{\"x\":(1)2}, {\"x\":(2)2}, {y}]>"}]})";
  Graph graph = loadGraph(json);
  SpmdProgram program = partitionVerified(graph);
  CHECK(computeManifest(program).collectives.empty());
  for (uint64_t seed : {5, 6})
    CHECK(checkPartitionedEqualsInterpreter(graph, seed) == "");
}

TEST_CASE("a major factor the axis does not divide keeps the sub-axis it can hold") {
  // [6, 4] -> [24] on x (4): gcd(6, 4) = 2, so the rows take "x":(1)2 and
  // the rest of x is sliced off the local result (nothing moves).
  Graph graph = loadGraph(reshapeGraph(meshX4, "tensor<6x4xf32>", R"(<@m, [{\"x\":(1)2}, {}]>)",
                                       "tensor<24xf32>", "<@m, [{x}]>", "<@m, [{x}]>"));
  propagateInPlace(graph);
  SpmdProgram program = partitionVerified(graph);
  CHECK(reshapeOperandAxes(program) == DimAxes{{AxisRef::sub("x", 1, 2)}, {}});
  CHECK(computeManifest(program).collectives.empty());
  CHECK(checkPartitionedEqualsInterpreter(graph, 7) == "");
}

TEST_CASE("an uneven minor factor or a coprime major one is computed exactly") {
  // [2, 5] -> [10] on x: the rows take "x":(1)2, the 5 columns over
  // "x":(2)2 would be uneven inside the merged dim, so they stay whole and
  // the result is resharded. [3, 8] -> [24]: 3 and 4 are coprime, so x
  // cannot be split for the rows.
  Graph uneven = loadGraph(
      reshapeGraph(meshX4, "tensor<2x5xf32>", "", "tensor<10xf32>", "<@m, [{x}]>", "<@m, [{x}]>"));
  CHECK(reshapeOperandAxes(partitionVerified(uneven)) == DimAxes{{AxisRef::sub("x", 1, 2)}, {}});
  Graph coprime = loadGraph(reshapeGraph(meshX4, "tensor<3x8xf32>", "<@m, [{}, {x}]>",
                                         "tensor<24xf32>", "<@m, [{x}]>", "<@m, [{x}]>"));
  CHECK(reshapeOperandAxes(partitionVerified(coprime)) == DimAxes{{}, {}});
  for (uint64_t seed : {8, 9}) {
    CHECK(checkPartitionedEqualsInterpreter(uneven, seed) == "");
    CHECK(checkPartitionedEqualsInterpreter(coprime, seed) == "");
  }
}

TEST_CASE("merges and splits over axes of 4, 6 and 2 x 4 devices are exact, local where they can") {
  struct Case {
    std::string mesh, from, fromSharding, to, outputSharding;
    bool local; // no collective at all
  };
  const std::string meshX6 = R"({"name": "m", "axes": [{"name": "x", "size": 6}]})";
  const std::vector<Case> cases = {
      // A size-6 axis splits into 2 x 3 or 3 x 2 parts.
      {meshX6, "tensor<2x3xf32>", "", "tensor<6xf32>", "<@m, [{x}]>", true},
      {meshX6, "tensor<3x4xf32>", "", "tensor<12xf32>", "<@m, [{x}]>", true},
      {meshX6, "tensor<12xf32>", "<@m, [{x}]>", "tensor<3x4xf32>", "", true},
      // Two axes over three dims: [4, 2, 8] -> [64] on {x, y} (x = 4, y = 2).
      {meshX4Y2, "tensor<2x2x8xf32>", "", "tensor<32xf32>", "<@m, [{x, y}]>", true},
      {meshX4Y2, "tensor<32x3xf32>", "<@m, [{y, x}, {}]>", "tensor<2x16x3xf32>", "", true},
      // Uneven: 5 columns next to a split dim, 7 elements merged with 2.
      {meshX4Y2, "tensor<2x4x5xf32>", "", "tensor<8x5xf32>", "<@m, [{x}, {y}]>", true},
      {meshX4, "tensor<2x7xf32>", "", "tensor<14xf32>", "<@m, [{x}]>", false},
  };
  for (const Case &c : cases) {
    CAPTURE(c.from);
    CAPTURE(c.to);
    Graph graph =
        loadGraph(reshapeGraph(c.mesh, c.from, c.fromSharding, c.to, "", c.outputSharding));
    propagateInPlace(graph);
    SpmdProgram program = partitionVerified(graph);
    if (c.local)
      CHECK(computeManifest(program).collectives.empty());
    CHECK(checkPartitionedEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("random reshapes between random shardings, propagated or not, equal the interpreter") {
  // Shapes of 24 elements regrouped, on meshes whose axes cut them unevenly
  // or coprimely as often as evenly; input and output shardings at random
  // (each axis on a random dim or none).
  const std::vector<std::string> shapes = {
      "tensor<24xf32>",  "tensor<2x12xf32>",  "tensor<4x6xf32>",   "tensor<6x4xf32>",
      "tensor<3x8xf32>", "tensor<2x3x4xf32>", "tensor<4x3x2xf32>", "tensor<12x2xf32>"};
  const std::vector<std::pair<std::string, std::vector<std::string>>> meshes = {
      {meshX4, {"x"}},
      {R"({"name": "m", "axes": [{"name": "x", "size": 6}]})", {"x"}},
      {meshX4Y2, {"x", "y"}},
      {R"({"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 3}]})",
       {"x", "y"}}};
  std::mt19937_64 rng(2026);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  auto randomSharding = [&](const std::vector<std::string> &axes, size_t rank) {
    std::vector<std::string> dims(rank);
    for (const std::string &axis : axes)
      if (size_t d = pick(rank + 1); d < rank)
        dims[d] += (dims[d].empty() ? "" : ", ") + axis;
    std::string text = "<@m, [";
    for (size_t d = 0; d < rank; ++d)
      text += (d ? ", {" : "{") + dims[d] + "}";
    return text + "]>";
  };
  auto rankOf = [](const std::string &type) {
    return static_cast<size_t>(std::count(type.begin(), type.end(), 'x'));
  };
  int subAxisReshapes = 0; // dims, so the cases are not all whole-axis ones
  for (int trial = 0; trial < 300; ++trial) {
    const auto &[mesh, axes] = meshes[pick(meshes.size())];
    const std::string &from = shapes[pick(shapes.size())], &to = shapes[pick(shapes.size())];
    const std::string in = randomSharding(axes, rankOf(from)),
                      out = randomSharding(axes, rankOf(to));
    CAPTURE(trial);
    CAPTURE(mesh);
    CAPTURE(from + " " + in + " -> " + to + " " + out);
    Graph graph = loadGraph(reshapeGraph(mesh, from, in, to, "", out));
    if (trial % 2 == 0)
      propagateInPlace(graph);
    CHECK(checkPartitionedEqualsInterpreter(graph, static_cast<uint64_t>(trial)) == "");
    for (const auto &axesOfDim : reshapeOperandAxes(partitionVerified(graph)))
      subAxisReshapes += std::any_of(axesOfDim.begin(), axesOfDim.end(),
                                     [](const AxisRef &axis) { return axis.isSubAxis(); });
  }
  MESSAGE("reshape operands on sub-axes: ", subAxisReshapes);
  CHECK(subAxisReshapes > 10);
}
