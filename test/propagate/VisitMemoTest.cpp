// Replayed visits (VisitMemo) write exactly what computing them again
// writes: on the shared generator's random graphs (manual computations,
// constraints, groups, size-1 dims, every op), each tensor's state and
// origin after every op-priority stage, with and without the memo.

#include <doctest/doctest.h>

#include "compiler/ir/Diagnostic.h"
#include "compiler/propagate/PropagationEngine.h"
#include "test/propagate/PropagationTestUtil.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::propagation;
using namespace shardgen::testing;

namespace {

bool sameOrigin(const Origin &a, const Origin &b) {
  return a.kind == b.kind && a.ref == b.ref && a.source == b.source;
}

/// Runs the op-priority stages with `resolution` on two propagation graphs
/// of `graph`, one engine replaying and one computing every visit, and
/// checks after each stage that both hold the same.
int64_t compareWithAndWithoutMemo(const Graph &graph, ConflictResolution resolution) {
  PropagationGraph replayed = buildPropagationGraph(graph);
  PropagationGraph computed = buildPropagationGraph(graph);
  PropagationEngine withMemo(graph, replayed);
  PropagationEngine withoutMemo(graph, computed, /*memoize=*/false);
  for (OpStage stage :
       {OpStage::PassThroughSingleUse, OpStage::PassThroughOps, OpStage::PassThroughFactors,
        OpStage::AnyButBroadcastForward, OpStage::Everything}) {
    bool afterPrevStage = stage != OpStage::PassThroughSingleUse;
    withMemo.run(resolution, stage, afterPrevStage);
    withoutMemo.run(resolution, stage, afterPrevStage);
    CAPTURE(static_cast<int>(stage));
    REQUIRE(withMemo.visits() == withoutMemo.visits());
    for (size_t t = 0; t < replayed.tensors.size(); ++t) {
      CAPTURE(t);
      REQUIRE(replayed.stateOf(static_cast<int64_t>(t)) ==
              computed.stateOf(static_cast<int64_t>(t)));
      REQUIRE(sameOrigin(replayed.tensors[t].origin, computed.tensors[t].origin));
      REQUIRE(replayed.extensionsOf(replayed.tensors[t]).size() ==
              computed.extensionsOf(computed.tensors[t]).size());
    }
  }
  return withMemo.visits();
}

} // namespace

TEST_CASE("replayed visits write what computing them again writes") {
  int64_t visits = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    CAPTURE(seed);
    Graph graph = loadGraph(randomGraphJson(seed));
    visits += compareWithAndWithoutMemo(graph, ConflictResolution::Basic);
    visits += compareWithAndWithoutMemo(graph, ConflictResolution::Aggressive);
  }
  CHECK(visits > 30000); // the graphs are not trivial
}
