// read -> verify -> propagate -> partition (code generation excluded), and
// the SPMD coherence check on every program the partitioner produces.
#include "compiler/frontend/GraphReader.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/partition/SpmdCoherence.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"
#include "test/fuzz/FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  shardgen::fuzz::expectOnly([&] {
    shardgen::Graph graph = shardgen::readGraph(text);
    shardgen::verifyGraph(graph);
    shardgen::PropagationResult result =
        shardgen::propagateShardings(graph, shardgen::PropagationStrategy::UserPriority);
    shardgen::applyPropagation(graph, result);
    shardgen::verifySpmdCoherence(shardgen::partitionProgram(graph));
  });
  return 0;
}
