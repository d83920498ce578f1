#include "compiler/partition/Partitioner.h"

#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/ProgramMesh.h"
#include "compiler/partition/RegionPartitioner.h"

namespace shardgen {

SpmdProgram partitionProgram(const Graph &graph) {
  // Until distributed values are partitioned chunk by chunk, refuse rather
  // than compute them as replicated values in the wrong buffer layout.
  if (std::string pointer = firstDistributionPointer(graph); !pointer.empty())
    fail(pointer, "distributions are not supported by run and compile yet (eval runs them)");
  SpmdProgram program;
  program.graph = &graph;
  program.mesh = programMesh(graph);
  RegionPartitioner(graph, program).partitionMain();
  return program;
}

} // namespace shardgen
