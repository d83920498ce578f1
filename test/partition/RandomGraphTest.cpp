// Differential test: on random graphs, the partitioned program (simulated
// per device) computes what the reference interpreter computes, with the
// graph's shardings as written (unannotated values replicated) and after
// propagation.

#include <doctest/doctest.h>

#include <map>

#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/Partitioner.h"
#include "test/partition/PartitionTestUtil.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string describeFailure(const std::string &json, const std::string &what) {
  return what + "\n" + json;
}

std::string checkSeed(uint64_t seed, bool propagate) {
  std::string json = randomGraphJson(seed);
  try {
    Graph graph = loadGraph(json);
    if (propagate)
      propagateInPlace(graph);
    std::string result = checkPartitionedEqualsInterpreter(graph, seed * 7 + 1);
    return result.empty() ? "" : describeFailure(json, result);
  } catch (const GraphError &error) {
    return describeFailure(json, error.pointer() + ": " + error.what());
  } catch (const std::exception &error) {
    return describeFailure(json, error.what());
  }
}

} // namespace

TEST_CASE("random graphs are valid and deterministic per seed") {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    std::string json = randomGraphJson(seed);
    CHECK(json == randomGraphJson(seed));
    CHECK_NOTHROW(loadGraph(json));
  }
  CHECK(randomGraphJson(1) != randomGraphJson(2));
}

TEST_CASE("random graphs cover the spec's op table") {
  std::map<std::string, size_t> counts;
  size_t nestedManual = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Graph graph = loadGraph(randomGraphJson(seed));
    walkOps(graph.main, [&](const Op &op) {
      ++counts[std::string(op.name())];
      if (op.kind == OpKind::ManualComputation)
        for (const auto &inner : op.body()->ops)
          nestedManual += inner.kind == OpKind::ManualComputation;
    });
  }
  for (const char *name : {"constant",
                           "iota",
                           "add",
                           "subtract",
                           "multiply",
                           "divide",
                           "maximum",
                           "minimum",
                           "negate",
                           "abs",
                           "tanh",
                           "sqrt",
                           "floor",
                           "compare",
                           "select",
                           "clamp",
                           "convert",
                           "dot_general",
                           "transpose",
                           "reshape",
                           "broadcast_in_dim",
                           "reduce",
                           "concatenate",
                           "slice",
                           "pad",
                           "reverse",
                           "dynamic_slice",
                           "dynamic_update_slice",
                           "gather",
                           "scatter",
                           "reduce_window",
                           "select_and_scatter",
                           "convolution",
                           "sort",
                           "rng_bit_generator",
                           "shift_right_logical",
                           "sharding_constraint",
                           "sharding_group",
                           "manual_computation",
                           "all_reduce",
                           "all_gather",
                           "reduce_scatter",
                           "all_to_all",
                           "collective_permute",
                           "axis_index"}) {
    CAPTURE(name);
    CHECK(counts[name] > 0);
  }
  CHECK(nestedManual > 0);
}

TEST_CASE("random graphs as annotated: partitioned == interpreted (200 seeds)") {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    CHECK(checkSeed(seed, false) == "");
  }
}

TEST_CASE("random graphs after propagation: partitioned == interpreted (200 seeds)") {
  for (uint64_t seed = 1000; seed < 1200; ++seed) {
    CAPTURE(seed);
    CHECK(checkSeed(seed, true) == "");
  }
}

TEST_CASE("random graphs exercise every kind of SPMD step") {
  std::map<StepKind, size_t> counts;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Graph graph = loadGraph(randomGraphJson(seed));
    SpmdProgram program = partitionVerified(graph);
    for (const auto &step : program.steps)
      ++counts[step.kind];
  }
  for (StepKind kind : {StepKind::Compute, StepKind::AllSlice, StepKind::AllGather,
                        StepKind::AllToAll, StepKind::CollectivePermute, StepKind::AllReduce,
                        StepKind::ReduceScatter, StepKind::Broadcast, StepKind::Alias}) {
    CAPTURE(stepKindName(kind));
    CHECK(counts[kind] > 0);
  }
  MESSAGE("step counts over 200 graphs: compute "
          << counts[StepKind::Compute] << ", all_slice " << counts[StepKind::AllSlice]
          << ", all_gather " << counts[StepKind::AllGather] << ", all_to_all "
          << counts[StepKind::AllToAll] << ", collective_permute "
          << counts[StepKind::CollectivePermute] << ", all_reduce " << counts[StepKind::AllReduce]
          << ", reduce_scatter " << counts[StepKind::ReduceScatter] << ", broadcast "
          << counts[StepKind::Broadcast]);
}

TEST_CASE("random graphs with loops and branches: partitioned equals the interpreter") {
  RandomGraphOptions options;
  options.controlFlowMoves = 2;
  size_t loops = 0, branches = 0, ifs = 0;
  for (uint64_t seed = 0; seed < 120; ++seed) {
    CAPTURE(seed);
    std::string json = randomGraphJson(seed, options);
    CHECK(json == randomGraphJson(seed, options));
    for (bool propagate : {false, true}) {
      std::string failure;
      try {
        Graph graph = loadGraph(json);
        walkOps(graph.main, [&](const Op &op) {
          loops += op.kind == OpKind::While;
          branches += op.kind == OpKind::Case || op.kind == OpKind::If;
          ifs += op.kind == OpKind::If;
        });
        if (propagate)
          propagateInPlace(graph);
        failure = checkPartitionedEqualsInterpreter(graph, seed * 7 + 1);
      } catch (const GraphError &error) {
        failure = error.pointer() + ": " + error.what();
      }
      CHECK_MESSAGE(failure.empty(), failure << "\n" << json);
    }
  }
  CHECK(loops > 50);
  CHECK(branches > 50);
  CHECK(ifs > 10);
}
